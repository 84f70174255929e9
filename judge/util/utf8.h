// SPDX-License-Identifier: MIT
#pragma once
// The one rule for text from outside the judge (what a compiler or a submission prints, file
// names, messages quoting them) that reaches a report: every format the judge writes is UTF-8
// (JSON cannot even hold anything else), so each maximal run of bytes that cannot start or
// continue a valid UTF-8 sequence becomes one U+FFFD, Unicode's replacement character (the
// "maximal subpart" practice of Unicode 15 §3.9, which browsers and nlohmann::json follow too).
#include <string>
#include <string_view>

namespace judge {

bool IsValidUtf8(std::string_view text);
std::string ValidUtf8(std::string_view text);

}  // namespace judge
