// IP networks for MDC_TRUSTED_PROXIES: CIDR parsing, membership, and the
// canonical text the configuration keeps.
#include "domain/ip_network.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace mdc::domain {
namespace {

std::string Canonical(const char* text) {
  const std::optional<IpNetwork> network = IpNetwork::Parse(text);
  return network.has_value() ? network->ToString() : "(refused)";
}

TEST(IpNetwork, ReadsNetworksAndSingleAddresses) {
  EXPECT_EQ(Canonical("10.244.0.0/16"), "10.244.0.0/16");
  EXPECT_EQ(Canonical("10.0.0.7"), "10.0.0.7");
  EXPECT_EQ(Canonical("10.0.0.7/32"), "10.0.0.7");
  EXPECT_EQ(Canonical("0.0.0.0/0"), "0.0.0.0/0");
  EXPECT_EQ(Canonical("fd00::/8"), "fd00::/8");
  EXPECT_EQ(Canonical("0:0::1"), "::1");
  EXPECT_EQ(Canonical("::1/128"), "::1");
  // IPv4-mapped IPv6: the IPv4 network, as peers are compared in IPv4 form.
  EXPECT_EQ(Canonical("::ffff:10.0.0.3"), "10.0.0.3");
  EXPECT_EQ(Canonical("::ffff:10.0.0.0/104"), "10.0.0.0/8");
}

TEST(IpNetwork, RefusesWhatIsNotANetwork) {
  for (const char* bad :
       {"", "gateway", "10.0.0.0/", "10.0.0.0/33", "fd00::/129", "10.0.0.0/-1",
        "10.0.0.0/+8", "10.0.0.0/ 8", "10.0.0.0/8/8", "/8", "10.244.0.1/16",
        "fd00::1/8", "::ffff:10.0.0.0/95", "10.0.0.0/0008"}) {
    EXPECT_FALSE(IpNetwork::Parse(bad).has_value()) << bad;
  }
}

TEST(IpNetwork, ContainsTheAddressesOfItsPrefix) {
  const IpNetwork pods = *IpNetwork::Parse("10.244.0.0/16");
  EXPECT_TRUE(pods.Contains("10.244.0.0"));
  EXPECT_TRUE(pods.Contains("10.244.3.17"));
  EXPECT_TRUE(pods.Contains("10.244.255.255"));
  EXPECT_TRUE(pods.Contains("::ffff:10.244.1.2"));
  EXPECT_FALSE(pods.Contains("10.245.0.1"));
  EXPECT_FALSE(pods.Contains("10.243.255.255"));
  EXPECT_FALSE(pods.Contains("::1"));
  EXPECT_FALSE(pods.Contains("not an address"));

  const IpNetwork odd = *IpNetwork::Parse("172.16.0.0/12");
  EXPECT_TRUE(odd.Contains("172.31.255.1"));
  EXPECT_FALSE(odd.Contains("172.32.0.1"));

  const IpNetwork v6 = *IpNetwork::Parse("fd00::/8");
  EXPECT_TRUE(v6.Contains("fd12:3456::1"));
  EXPECT_FALSE(v6.Contains("fe80::1"));
  EXPECT_FALSE(v6.Contains("10.0.0.1"));

  const IpNetwork one = *IpNetwork::Parse("10.0.0.7");
  EXPECT_TRUE(one.Contains("10.0.0.7"));
  EXPECT_FALSE(one.Contains("10.0.0.8"));

  EXPECT_TRUE(IpNetwork::Parse("0.0.0.0/0")->Contains("203.0.113.9"));
  EXPECT_FALSE(IpNetwork::Parse("0.0.0.0/0")->Contains("2001:db8::1"));
}

}  // namespace
}  // namespace mdc::domain
