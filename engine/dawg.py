"""A minimal DAWG (directed acyclic word graph) in two flat arrays, usable straight from a mapped file.

Node ``0`` means "no node"; the root is node ``1``. ``nodes[2 * n]`` holds the
letters leaving node ``n`` as a bit mask (bit ``c`` for letter ``c``, 0 = A …
25 = Z) plus bit 26 when the path to ``n`` spells a word; ``nodes[2 * n + 1]``
is the index in ``edges`` of its first child, the children following in letter
order. About 8 bytes a node and 4 an edge (the French list: 0.8 MB), so a cache
file is mapped and used in place, without parsing. The compiled core
(``engine._core``) searches this layout directly; the pure-Python move
generator asks for the expanded per-letter tables (:attr:`Dawg.child` …), made
on first use.
"""

from __future__ import annotations

import hashlib
import struct
from array import array
from collections.abc import Iterable

try:  # the compiled core; absent where it could not be built (pure-Python fallback)
    from . import _core as core
except ImportError:  # pragma: no cover - exercised by the fallback test through monkeypatching
    core = None

ALPHABET = 26
LETTERS = (1 << ALPHABET) - 1
TERMINAL = 1 << ALPHABET
MAX_WORD = 15
_MAGIC = b"DUPDAWG\x02"
_HEADER = struct.Struct("<8sIII4x32s8x")  # magic, nodes, edges, words, sha256 of payload: 64 bytes
HEADER_SIZE = _HEADER.size


class CorruptDawg(ValueError):
    """The serialised DAWG is damaged: it must be rebuilt, never trusted."""


class Dawg:
    __slots__ = ("nodes", "edges", "word_count", "_payload", "_graph", "_tables")

    def __init__(self, payload, node_count: int, edge_count: int, word_count: int) -> None:
        """``payload``: any buffer holding the node array then the edge array (little-endian uint32)."""
        view = memoryview(payload).cast("B")
        if len(view) != 8 * node_count + 4 * edge_count:
            raise CorruptDawg("fichier compilé tronqué")
        self._payload = payload
        self.nodes = view[: 8 * node_count].cast("I")
        self.edges = view[8 * node_count:].cast("I")
        self.word_count = word_count
        self._graph = None
        self._tables = None

    @property
    def node_count(self) -> int:
        return len(self.nodes) // 2

    @property
    def edge_count(self) -> int:
        return len(self.edges)

    @property
    def graph(self):
        """The compiled core's checked view of this DAWG (``None`` without the core)."""
        if self._graph is None and core is not None:
            try:
                self._graph = core.Graph(self._payload, 0, self.node_count, self.edge_count)
            except ValueError as exc:
                raise CorruptDawg(str(exc)) from exc
        return self._graph

    # -- lookups --------------------------------------------------------------
    def child_of(self, node: int, code: int) -> int:
        """The node after letter ``code`` from ``node``; 0 if none."""
        info = self.nodes[2 * node]
        if not info >> code & 1:
            return 0
        return self.edges[self.nodes[2 * node + 1] + (info & ((1 << code) - 1)).bit_count()]

    def walk(self, word: str, node: int = 1) -> int:
        """The node reached by spelling ``word`` (upper case A–Z) from ``node``; 0 if none."""
        nodes, edges = self.nodes, self.edges
        for ch in word:
            code = ord(ch) - 65
            if not 0 <= code < ALPHABET:
                return 0
            info = nodes[2 * node]
            if not info >> code & 1:
                return 0
            node = edges[nodes[2 * node + 1] + (info & ((1 << code) - 1)).bit_count()]
        return node

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str) or not word:
            return False
        node = self.walk(word)
        return bool(node and self.nodes[2 * node] & TERMINAL)

    def words(self) -> Iterable[str]:
        """Every word, in alphabetical order (for tests and exports)."""
        nodes, edges = self.nodes, self.edges
        stack: list[tuple[int, str]] = [(1, "")]
        out: list[str] = []
        while stack:
            node, prefix = stack.pop()
            info = nodes[2 * node]
            if info & TERMINAL and prefix:
                out.append(prefix)
            codes = [code for code in range(ALPHABET) if info >> code & 1]
            first = nodes[2 * node + 1]
            for k in range(len(codes) - 1, -1, -1):
                stack.append((edges[first + k], prefix + chr(65 + codes[k])))
        return out

    # -- per-letter tables for the pure-Python generator ----------------------
    def _expanded(self) -> tuple[array, array, bytearray]:
        if self._tables is None:
            n = self.node_count
            child = array("i", bytes(4 * n * ALPHABET))
            mask = array("I", bytes(4 * n))
            terminal = bytearray(n)
            nodes, edges = self.nodes, self.edges
            for node in range(n):
                info = nodes[2 * node]
                mask[node] = info & LETTERS
                terminal[node] = 1 if info & TERMINAL else 0
                k = nodes[2 * node + 1]
                base = node * ALPHABET
                m = info & LETTERS
                while m:
                    low = m & -m
                    child[base + low.bit_length() - 1] = edges[k]
                    k += 1
                    m ^= low
            self._tables = (child, mask, terminal)
        return self._tables

    @property
    def child(self) -> array:
        """``child[n * 26 + c]``: the node after letter ``c`` from ``n``, or 0."""
        return self._expanded()[0]

    @property
    def mask(self) -> array:
        """``mask[n]``: the letters leaving ``n`` (bit ``c`` for letter ``c``)."""
        return self._expanded()[1]

    @property
    def terminal(self) -> bytearray:
        """``terminal[n]`` is 1 when the path to ``n`` spells a word."""
        return self._expanded()[2]

    # -- construction ---------------------------------------------------------
    @classmethod
    def build(cls, sorted_words: Iterable[str]) -> Dawg:
        """The minimal DAWG of sorted unique words (A–Z), by the compiled core where it is built."""
        words = sorted_words if isinstance(sorted_words, list) else list(sorted_words)
        if core is not None:
            built = core.build("\n".join(words), 1)
            if built is not None:
                return cls(*built)
        return cls.build_python(words)  # the core takes 1–15 letters A–Z; anything else, or an error

    @classmethod
    def from_text(cls, text: str, min_length: int = 2) -> Dawg | None:
        """The DAWG of a list that is already one sorted unique word a line (A–Z, ``min_length``–15
        letters), compiled without going through Python strings; ``None`` when the text is not such
        a list (then it must go through the normaliser) or the compiled core is missing."""
        if core is None:
            return None
        built = core.build(text, min_length)
        return None if built is None else cls(*built)

    @classmethod
    def build_python(cls, sorted_words: Iterable[str]) -> Dawg:
        """Daciuk's incremental construction in pure Python (the reference for the compiled one)."""
        # Nodes under construction: list of [terminal, {code: node_id}]; ids are final ids.
        terminal: list[int] = [0, 0]
        edges: list[dict[int, int]] = [{}, {}]
        register: dict[tuple, int] = {}
        path: list[int] = [1]  # nodes of the previous word, path[i] after i letters
        previous = ""
        count = 0

        def minimise(down_to: int) -> None:
            # Replace the unchecked tail of the previous word by registered equivalents.
            for i in range(len(path) - 1, down_to, -1):
                node = path[i]
                key = (terminal[node], tuple(sorted(edges[node].items())))
                found = register.get(key)
                parent = path[i - 1]
                code = ord(previous[i - 1]) - 65
                if found is None:
                    register[key] = node
                else:
                    edges[parent][code] = found
                    path[i] = found
            del path[down_to + 1:]

        for word in sorted_words:
            if word <= previous and count:
                raise ValueError("les mots doivent être triés et uniques")
            common = 0
            limit = min(len(word), len(previous))
            while common < limit and word[common] == previous[common]:
                common += 1
            minimise(common)
            node = path[-1]
            for ch in word[common:]:
                new = len(terminal)
                terminal.append(0)
                edges.append({})
                edges[node][ord(ch) - 65] = new
                path.append(new)
                node = new
            terminal[node] = 1
            previous = word
            count += 1
        minimise(0)

        # Renumber reachable nodes breadth first (root stays 1, children in letter order) and flatten.
        ids = {1: 1}
        order = [1]
        for node in order:
            for code in sorted(edges[node]):
                target = edges[node][code]
                if target not in ids:
                    ids[target] = len(order) + 1
                    order.append(target)
        flat_nodes = array("I", [0, 0])
        flat_edges = array("I")
        for node in order:
            m = 0
            for code in sorted(edges[node]):
                m |= 1 << code
            flat_nodes.append(m | (TERMINAL if terminal[node] else 0))
            flat_nodes.append(len(flat_edges))
            flat_edges.extend(ids[edges[node][code]] for code in sorted(edges[node]))
        payload = flat_nodes.tobytes() + flat_edges.tobytes()
        return cls(payload, len(order) + 1, len(flat_edges), count)

    # -- serialisation --------------------------------------------------------
    def payload(self) -> memoryview:
        return memoryview(self._payload).cast("B")

    def to_bytes(self) -> bytes:
        payload = self.payload()
        digest = hashlib.sha256(payload).digest()
        header = _HEADER.pack(_MAGIC, self.node_count, self.edge_count, self.word_count, digest)
        return header + payload.tobytes()

    @classmethod
    def from_buffer(cls, data, offset: int = 0) -> Dawg:
        """The DAWG serialised at ``offset`` of ``data`` (bytes or a mapped file), used in place.

        The payload's checksum is verified (about 1 ms for the French list), and the compiled
        core, when present, checks every index once.
        """
        view = memoryview(data).cast("B")
        if len(view) < offset + _HEADER.size:
            raise CorruptDawg("fichier compilé tronqué")
        magic, n, e, word_count, digest = _HEADER.unpack_from(view, offset)
        if magic != _MAGIC:
            raise CorruptDawg("fichier compilé d'un autre format")
        start = offset + _HEADER.size
        payload = view[start:]
        if n < 2 or len(payload) != 8 * n + 4 * e:
            raise CorruptDawg("fichier compilé tronqué")
        if hashlib.sha256(payload).digest() != digest:
            raise CorruptDawg("fichier compilé endommagé (somme de contrôle)")
        dawg = cls(payload, n, e, word_count)
        dawg.graph  # noqa: B018 - the core's bounds check, once
        return dawg

    @classmethod
    def from_bytes(cls, data: bytes) -> Dawg:
        return cls.from_buffer(data, 0)
