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

// The same text made safe to print on a terminal: valid UTF-8 as above, and every control
// character but newline and tab (ESC starts the sequences that move the cursor, clear the screen or
// retitle the window; CR overwrites a line) shown as \xHH, C1 controls (U+0080..U+009F) as
// \u0080..\u009F. At most `max_bytes` of the input are kept, cut at a character's start, with
// "..." after a cut. For what a submission or its compiler printed, in the text report.
std::string ForTerminal(std::string_view text, size_t max_bytes = std::string_view::npos);

}  // namespace judge
