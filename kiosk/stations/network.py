"""Where the station server listens, and the secrets that let a station in.

The room has no internet and often no DNS: the address shown on the console
is the machine's own IPv4 address on the club's network, found from the
interfaces themselves (no packet is sent to find it).
"""

from __future__ import annotations

import hashlib
import secrets
import socket
import struct

DEFAULT_PORT = 8765
#: ports tried after the default one when it is taken (another program, another game)
PORT_TRIES = 20
_SIOCGIFADDR = 0x8915


def lan_addresses() -> list[str]:
    """The IPv4 addresses of this machine's network interfaces, loopback left out."""
    try:
        import fcntl
    except ImportError:  # not Linux: ask the resolver for the host's own name
        try:
            found = socket.gethostbyname_ex(socket.gethostname())[2]
        except OSError:
            return []
        return [a for a in found if not a.startswith("127.")]
    out: list[str] = []
    try:
        interfaces = socket.if_nameindex()
    except OSError:
        return []
    for _, name in interfaces:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            try:
                packed = fcntl.ioctl(sock.fileno(), _SIOCGIFADDR,
                                     struct.pack("256s", name[:15].encode()))
            except OSError:
                continue  # no IPv4 address on this interface
        address = socket.inet_ntoa(packed[20:24])
        if not address.startswith("127.") and address not in out:
            out.append(address)
    return out


def network_present() -> bool:
    """True when the machine is on a network other phones could be on."""
    return bool(lan_addresses())


def public_host(bind: str) -> str:
    """The host name to put in the join address for a server bound to ``bind``."""
    if bind in ("", "0.0.0.0", "::"):
        found = lan_addresses()
        return found[0] if found else "127.0.0.1"
    return bind


def join_url(host: str, port: int, secret: str | None = None) -> str:
    base = f"http://{host}:{port}/"
    return f"{base}?cle={secret}" if secret else base


def results_url(host: str, port: int, key: str) -> str:
    """The results page, with its own read-only key (it lets nobody join or write)."""
    return f"http://{host}:{port}/classement?cle={key}"


def new_secret() -> str:
    """The per-game secret carried by the QR code (128 bits)."""
    return secrets.token_urlsafe(16)


def new_code() -> str:
    """The 6-digit code typed on a laptop (rate-limited by the server)."""
    return f"{secrets.randbelow(10**6):06d}"


def new_token() -> str:
    """A station's own token, kept by its browser; the journal keeps only its hash."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def same_secret(given: str, expected: str) -> bool:
    return secrets.compare_digest(given.encode(), expected.encode())
