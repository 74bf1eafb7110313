"""Which IP addresses are on the public internet, by an explicit table of the IANA
special-purpose address registries, whatever Python runs it.

`ipaddress`'s own flags changed between patch releases (3.11.7 took 192.0.0.0/24 outside
its /29, 192.88.99.0/24 and fec0::/10 for global), so the webhooks do not depend on them.
The tables follow iana-ipv4-special-registry and iana-ipv6-special-registry; the most
specific block an address falls in decides, and a block whose reachability the registry
gives as N/A (the 6to4 and Teredo relays) counts as not public. Outside the tables, an IPv4
address is public unless multicast (224.0.0.0/4, its own registry), and an IPv6 address
only within 2000::/3, the global unicast space of the IPv6 address space registry (so
site-local fec0::/10, multicast ff00::/8 and every other reserved block are not).
"""

import ipaddress

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

# (block, globally reachable: True, False or None for N/A, name in the registry)
IPV4_SPECIAL = [
    ("0.0.0.0/8", False, '"This network"'),
    ("0.0.0.0/32", False, '"This host on this network"'),
    ("10.0.0.0/8", False, "Private-Use"),
    ("100.64.0.0/10", False, "Shared Address Space"),
    ("127.0.0.0/8", False, "Loopback"),
    ("169.254.0.0/16", False, "Link Local"),
    ("172.16.0.0/12", False, "Private-Use"),
    ("192.0.0.0/24", False, "IETF Protocol Assignments"),
    ("192.0.0.0/29", False, "IPv4 Service Continuity Prefix"),
    ("192.0.0.8/32", False, "IPv4 dummy address"),
    ("192.0.0.9/32", True, "Port Control Protocol Anycast"),
    ("192.0.0.10/32", True, "Traversal Using Relays around NAT Anycast"),
    ("192.0.0.170/32", False, "NAT64/DNS64 Discovery"),
    ("192.0.0.171/32", False, "NAT64/DNS64 Discovery"),
    ("192.0.2.0/24", False, "Documentation (TEST-NET-1)"),
    ("192.31.196.0/24", True, "AS112-v4"),
    ("192.52.193.0/24", True, "AMT"),
    ("192.88.99.0/24", None, "Deprecated (6to4 Relay Anycast)"),
    ("192.168.0.0/16", False, "Private-Use"),
    ("192.175.48.0/24", True, "Direct Delegation AS112 Service"),
    ("198.18.0.0/15", False, "Benchmarking"),
    ("198.51.100.0/24", False, "Documentation (TEST-NET-2)"),
    ("203.0.113.0/24", False, "Documentation (TEST-NET-3)"),
    ("240.0.0.0/4", False, "Reserved"),
    ("255.255.255.255/32", False, "Limited Broadcast"),
]
IPV6_SPECIAL = [
    ("::/128", False, "Unspecified Address"),
    ("::1/128", False, "Loopback Address"),
    ("::ffff:0:0/96", False, "IPv4-mapped Address"),
    ("64:ff9b::/96", True, "IPv4-IPv6 Translat."),  # and then the IPv4 address inside
    ("64:ff9b:1::/48", False, "IPv4-IPv6 Translat."),
    ("100::/64", False, "Discard-Only Address Block"),
    ("2001::/23", False, "IETF Protocol Assignments"),
    ("2001::/32", None, "TEREDO"),
    ("2001:1::1/128", True, "Port Control Protocol Anycast"),
    ("2001:1::2/128", True, "Traversal Using Relays around NAT Anycast"),
    ("2001:2::/48", False, "Benchmarking"),
    ("2001:3::/32", True, "AMT"),
    ("2001:4:112::/48", True, "AS112-v6"),
    ("2001:10::/28", False, "Deprecated (previously ORCHID)"),
    ("2001:20::/28", True, "ORCHIDv2"),
    ("2001:30::/28", True, "Drone Remote ID Protocol Entity Tags (DETs) Prefix"),
    ("2001:db8::/32", False, "Documentation"),
    ("2002::/16", None, "6to4"),
    ("2620:4f:8000::/48", True, "Direct Delegation AS112 Service"),
    ("3fff::/20", False, "Documentation"),
    ("5f00::/16", False, "Segment Routing (SRv6) SIDs"),
    ("fc00::/7", False, "Unique-Local"),
    ("fe80::/10", False, "Link-Local Unicast"),
]
IPV4_MULTICAST = ipaddress.ip_network("224.0.0.0/4")
IPV6_GLOBAL_UNICAST = ipaddress.ip_network("2000::/3")
NAT64 = ipaddress.ip_network("64:ff9b::/96")


def _blocks(table: list[tuple[str, bool | None, str]]) -> list[tuple[Network, bool | None]]:
    """Most specific first."""
    blocks = [(ipaddress.ip_network(block), reachable) for block, reachable, _ in table]
    return sorted(blocks, key=lambda entry: -entry[0].prefixlen)


SPECIAL = {4: _blocks(IPV4_SPECIAL), 6: _blocks(IPV6_SPECIAL)}


def is_public(ip: Address) -> bool:
    """On the public internet (a NAT64 address when the IPv4 address inside it is)."""
    block = next((b for b in SPECIAL[ip.version] if ip in b[0]), None)
    if block is not None:
        network, reachable = block
        if reachable and network == NAT64:
            return is_public(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
        return bool(reachable)
    if ip.version == 4:
        return ip not in IPV4_MULTICAST
    return ip in IPV6_GLOBAL_UNICAST
