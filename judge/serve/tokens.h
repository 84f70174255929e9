// SPDX-License-Identifier: MIT
#pragma once
// Access tokens and the roster they are made from. A token is shown once, when made; the store
// keeps only its hash, so a copy of the database gives no one a way in.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "judge/util/expected.h"

namespace judge::serve {

// `n` bytes from the kernel's random source (getrandom). It cannot fail on a Linux that runs the
// judge (3.17 and later, a pool initialised at boot); where it does, the program ends with the
// reason, since nothing could be made secret without it.
std::string RandomBytes(size_t n);

// "jt_" and 64 hex digits: 32 random bytes. The prefix lets a leaked token be recognised (and
// found by secret scanners); the bytes make it unguessable.
std::string NewToken();

// What the store keeps of a token: its SHA-256, 64 hex digits. A plain hash suffices: the token
// has 256 bits of entropy, nothing to guess by brute force.
std::string HashToken(std::string_view token);

// A roster's login: 1 to 64 of [A-Za-z0-9._@-] (safe in URLs, logs and file names).
bool IsValidName(std::string_view name);

struct RosterRow {
  std::string name;
  std::string alias;  // empty: the name
  bool admin = false;
  int line = 0;  // in the file, from 1, for the caller's own messages
};

// A roster in CSV: one principal a line, "name[,alias[,admin]]", admin one of yes/no/true/false/1/0;
// an optional header "name,alias,admin" (or a prefix of it); blank lines skipped; fields may be
// "quoted" (a quote inside doubled). Errors name the line and what to write instead; a name may
// appear once.
Expected<std::vector<RosterRow>> ParseRoster(std::string_view csv);

}  // namespace judge::serve
