// SPDX-License-Identifier: MIT
#pragma once
// Buffer sizes in problem.json are integer expressions over the signature's scalars, e.g. "N",
// "1", "(N + 255) / 256". Grammar: expr := term (('+'|'-') term)*; term := factor (('*'|'/'|'%')
// factor)*; factor := integer | name | '(' expr ')'. Division truncates, like C. The text is input:
// parentheses nest at most kMaxSizeExprDepth deep, and a literal or a result outside int64 is an
// error, never undefined behaviour.
#include <cstdint>
#include <map>
#include <string>

#include "judge/util/expected.h"

namespace judge {

using ScalarValues = std::map<std::string, int64_t>;
// Float scalars (alpha, a threshold) by name: never part of a size.
using RealValues = std::map<std::string, double>;

inline constexpr int kMaxSizeExprDepth = 32;

Expected<int64_t> EvalSizeExpr(const std::string& expr, const ScalarValues& scalars);

}  // namespace judge
