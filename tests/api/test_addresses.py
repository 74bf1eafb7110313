"""Which addresses a webhook may reach, address by address through the IANA special-purpose
registries (api.addresses), the same whatever Python's `ipaddress` thinks of them."""

import ipaddress

import pytest

from api.addresses import IPV4_SPECIAL, IPV6_SPECIAL, is_public

NOT_PUBLIC = [
    # IPv4: each block's first and last address, and some inside.
    "0.0.0.0",
    "0.255.255.255",
    "10.0.0.1",
    "10.255.255.255",
    "100.64.0.1",
    "100.127.255.255",
    "127.0.0.1",
    "127.255.255.254",
    "169.254.169.254",
    "172.16.0.1",
    "172.31.255.255",
    "192.0.0.0",
    "192.0.0.7",  # the service continuity /29
    "192.0.0.8",  # the dummy address
    "192.0.0.11",
    "192.0.0.170",
    "192.0.0.171",
    "192.0.0.200",  # 192.0.0.0/24 outside its /29: Python 3.11.7 calls it global
    "192.0.0.255",
    "192.0.2.1",
    "192.88.99.0",  # the deprecated 6to4 relays: Python 3.11.7 calls them global
    "192.88.99.1",
    "192.88.99.255",
    "192.168.1.1",
    "198.18.0.1",
    "198.19.255.255",
    "198.51.100.7",
    "203.0.113.9",
    "224.0.0.1",  # multicast
    "239.255.255.250",
    "240.0.0.1",
    "255.255.255.254",
    "255.255.255.255",
    # IPv6
    "::",
    "::1",
    "::ffff:127.0.0.1",
    "::ffff:8.8.8.8",  # IPv4-mapped: never a route of its own
    "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
    "64:ff9b::a00:1",  # NAT64 of 10.0.0.1
    "64:ff9b:1::1",
    "100::1",
    "2001::1",  # Teredo (N/A in the registry)
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",
    "2001:1::3",
    "2001:2::1",
    "2001:10::1",
    "2001:1ff:ffff::1",  # the rest of 2001::/23
    "2001:db8::1",
    "2002:7f00:1::1",  # 6to4 (N/A)
    "2002:808:808::1",
    "3fff::1",
    "3fff:fff:ffff::1",
    "5f00::1",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "febf::1",
    "fec0::1",  # site-local: Python 3.11.7 calls it global
    "feff::1",
    "ff02::1",  # multicast
    "4000::1",  # outside the global unicast 2000::/3
    "1::1",
]
PUBLIC = [
    "1.1.1.1",
    "8.8.8.8",
    "9.255.255.255",
    "11.0.0.0",
    "100.63.255.255",
    "100.128.0.0",
    "172.15.255.255",
    "172.32.0.0",
    "192.0.0.9",  # Port Control Protocol anycast
    "192.0.0.10",  # TURN anycast
    "192.0.1.1",
    "192.31.196.1",
    "192.52.193.1",
    "192.88.98.255",
    "192.88.100.0",
    "192.175.48.1",
    "198.17.255.255",
    "198.20.0.0",
    "223.255.255.255",
    "2606:4700:4700::1111",
    "2a00:1450:4001::1",
    "64:ff9b::808:808",  # NAT64 of 8.8.8.8
    "2001:1::1",
    "2001:1::2",
    "2001:3::1",
    "2001:4:112::1",
    "2001:20::1",
    "2001:30::1",
    "2001:200::1",  # past 2001::/23
    "2620:4f:8000::1",
    "3ffe:ffff::1",
    "3fff:1000::1",
    "2000::1",
    "3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
]


@pytest.mark.parametrize("address", NOT_PUBLIC)
def test_a_non_public_address_is_refused(address):
    assert not is_public(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", PUBLIC)
def test_a_public_address_is_allowed(address):
    assert is_public(ipaddress.ip_address(address))


@pytest.mark.parametrize("block, reachable, name", IPV4_SPECIAL + IPV6_SPECIAL)
def test_every_block_of_the_registries_has_an_address_tested_here(block, reachable, name):
    network = ipaddress.ip_network(block)
    assert any(ipaddress.ip_address(a) in network for a in NOT_PUBLIC + PUBLIC), name
