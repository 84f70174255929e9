// SPDX-License-Identifier: MIT
#include "judge/serve/tokens.h"

#include <gtest/gtest.h>

#include <set>

namespace judge::serve {
namespace {

TEST(NewToken, IsPrefixedHexOf32RandomBytes) {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    const std::string token = NewToken();
    ASSERT_EQ(token.size(), 3u + 64u);
    EXPECT_EQ(token.substr(0, 3), "jt_");
    EXPECT_EQ(token.find_first_not_of("0123456789abcdef", 3), std::string::npos) << token;
    EXPECT_TRUE(seen.insert(token).second) << "drawn twice: " << token;
  }
}

TEST(HashToken, IsTheStableSha256HexOfTheToken) {
  EXPECT_EQ(HashToken("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const std::string token = NewToken();
  EXPECT_EQ(HashToken(token), HashToken(token));
  EXPECT_NE(HashToken(token), token);
  EXPECT_EQ(HashToken(token).size(), 64u);
}

TEST(IsValidName, AllowsLoginCharactersOnly) {
  EXPECT_TRUE(IsValidName("alice"));
  EXPECT_TRUE(IsValidName("a.b_c-d@uni.edu"));
  EXPECT_TRUE(IsValidName(std::string(64, 'x')));
  EXPECT_FALSE(IsValidName(std::string(65, 'x')));
  EXPECT_FALSE(IsValidName(""));
  EXPECT_FALSE(IsValidName("bob smith"));
  EXPECT_FALSE(IsValidName("../etc"));
  EXPECT_FALSE(IsValidName("é"));
}

TEST(ParseRoster, ReadsNamesAliasesAndAdminFlags) {
  auto rows = ParseRoster(
      "Name,Alias,Admin\r\n"
      "alice\r\n"
      "\n"
      "bob, Bob B. ,yes\n"
      "carol,\"Smith, Carol \"\"CS\"\"\",FALSE\n"
      "dave,,1");
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  ASSERT_EQ(rows->size(), 4u);
  EXPECT_EQ((*rows)[0].name, "alice");
  EXPECT_EQ((*rows)[0].alias, "");
  EXPECT_FALSE((*rows)[0].admin);
  EXPECT_EQ((*rows)[0].line, 2);
  EXPECT_EQ((*rows)[1].alias, "Bob B.");
  EXPECT_TRUE((*rows)[1].admin);
  EXPECT_EQ((*rows)[1].line, 4);
  EXPECT_EQ((*rows)[2].alias, "Smith, Carol \"CS\"");
  EXPECT_FALSE((*rows)[2].admin);
  EXPECT_TRUE((*rows)[3].admin);
}

TEST(ParseRoster, TheHeaderIsOptional) {
  auto rows = ParseRoster("alice,Alice\nbob\n");
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].alias, "Alice");
}

// The message of the roster's error, or "" when it parsed.
std::string RosterError(std::string_view csv) {
  auto rows = ParseRoster(csv);
  return rows.ok() ? "" : rows.error().message;
}

TEST(ParseRoster, ErrorsNameTheLineAndTheFix) {
  EXPECT_EQ(
      RosterError("alice\nbob smith,Bob\n"),
      "roster line 2: name 'bob smith' is not 1 to 64 of A-Za-z0-9._@- (use the login, e.g. alice or a.b@uni.edu)");
  EXPECT_EQ(RosterError("name,alias\nalice\n\nalice,Again\n"),
            "roster line 4: name 'alice' is on line 2 already: list each name once");
  EXPECT_EQ(RosterError("alice,A,maybe\n"), "roster line 1: admin 'maybe' is not one of yes/no/true/false/1/0");
  EXPECT_NE(RosterError("alice,A,yes,extra\n").find("roster line 1: 4 columns"), std::string::npos);
  EXPECT_NE(RosterError("alice\nbob,\"open\n").find("roster line 2: a quoted field has no closing quote"),
            std::string::npos);
  EXPECT_NE(RosterError(",Alias\n").find("roster line 1: name ''"), std::string::npos);
  EXPECT_NE(RosterError("alice,\"A\" B\n").find("roster line 1: text after a quoted field"), std::string::npos);
  EXPECT_NE(RosterError("alice," + std::string(65, 'a') + "\n").find("roster line 1: alias longer"), std::string::npos);
  EXPECT_NE(RosterError("name,alias,admin\n\n").find("lists no one"), std::string::npos);
}

}  // namespace
}  // namespace judge::serve
