"""A minimal DAWG (directed acyclic word graph) held in flat arrays.

Node ``0`` means "no node"; the root is node ``1``. For node ``n`` and letter
index ``c`` (0 = A … 25 = Z), ``child[n * 26 + c]`` is the target node or 0,
``mask[n]`` has bit ``c`` set when that edge exists and ``terminal[n]`` is 1
when the path to ``n`` spells a word. Flat arrays load from disk in one read
and are compact; the bit masks let move generation intersect the edges of a
node with the tirage and the cross-checks in one ``&``.
"""

from __future__ import annotations

import hashlib
import struct
from array import array
from collections.abc import Iterable

ALPHABET = 26
_MAGIC = b"DUPDAWG\x01"
_HEADER = struct.Struct("<8sII32s")  # magic, node count, word count, sha256 of payload


class CorruptDawg(ValueError):
    """The serialised DAWG is damaged: it must be rebuilt, never trusted."""


class Dawg:
    __slots__ = ("child", "mask", "terminal", "word_count")

    def __init__(self, child: array, mask: array, terminal: bytearray, word_count: int) -> None:
        self.child = child
        self.mask = mask
        self.terminal = terminal
        self.word_count = word_count

    @property
    def node_count(self) -> int:
        return len(self.terminal)

    # -- lookups --------------------------------------------------------------
    def walk(self, word: str, node: int = 1) -> int:
        """The node reached by spelling ``word`` (upper case A–Z) from ``node``; 0 if none."""
        child = self.child
        for ch in word:
            code = ord(ch) - 65
            if not 0 <= code < ALPHABET:
                return 0
            node = child[node * ALPHABET + code]
            if not node:
                return 0
        return node

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str) or not word:
            return False
        node = self.walk(word)
        return bool(node and self.terminal[node])

    def words(self) -> Iterable[str]:
        """Every word, in alphabetical order (for tests and exports)."""
        stack: list[tuple[int, str]] = [(1, "")]
        out: list[str] = []
        while stack:
            node, prefix = stack.pop()
            if self.terminal[node] and prefix:
                out.append(prefix)
            m = self.mask[node]
            for code in range(ALPHABET - 1, -1, -1):
                if m >> code & 1:
                    stack.append((self.child[node * ALPHABET + code], prefix + chr(65 + code)))
        return out

    # -- construction ---------------------------------------------------------
    @classmethod
    def build(cls, sorted_words: Iterable[str]) -> Dawg:
        """Daciuk's incremental construction of the minimal DAWG from sorted unique words."""
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

        # Renumber reachable nodes compactly (root stays 1) and flatten.
        ids = {1: 1}
        order = [1]
        for node in order:
            for code in sorted(edges[node]):
                target = edges[node][code]
                if target not in ids:
                    ids[target] = len(order) + 1
                    order.append(target)
        n = len(order) + 1
        child = array("i", bytes(4 * n * ALPHABET))
        mask = array("I", bytes(4 * n))
        term = bytearray(n)
        for node in order:
            new_id = ids[node]
            term[new_id] = terminal[node]
            m = 0
            for code, target in edges[node].items():
                child[new_id * ALPHABET + code] = ids[target]
                m |= 1 << code
            mask[new_id] = m
        return cls(child, mask, term, count)

    # -- serialisation --------------------------------------------------------
    def to_bytes(self) -> bytes:
        payload = self.child.tobytes() + self.mask.tobytes() + bytes(self.terminal)
        digest = hashlib.sha256(payload).digest()
        return _HEADER.pack(_MAGIC, self.node_count, self.word_count, digest) + payload

    @classmethod
    def from_bytes(cls, data: bytes) -> Dawg:
        if len(data) < _HEADER.size:
            raise CorruptDawg("fichier compilé tronqué")
        magic, n, word_count, digest = _HEADER.unpack_from(data)
        if magic != _MAGIC:
            raise CorruptDawg("fichier compilé d'un autre format")
        payload = memoryview(data)[_HEADER.size:]
        if len(payload) != n * ALPHABET * 4 + n * 4 + n:
            raise CorruptDawg("fichier compilé tronqué")
        if hashlib.sha256(payload).digest() != digest:
            raise CorruptDawg("fichier compilé endommagé (somme de contrôle)")
        child = array("i")
        child.frombytes(payload[: n * ALPHABET * 4])
        mask = array("I")
        mask.frombytes(payload[n * ALPHABET * 4 : n * ALPHABET * 4 + n * 4])
        terminal = bytearray(payload[n * ALPHABET * 4 + n * 4 :])
        if n < 2 or any(c < 0 or c >= n for c in child[ALPHABET: ALPHABET * 3]):
            raise CorruptDawg("fichier compilé incohérent")
        return cls(child, mask, terminal, word_count)
