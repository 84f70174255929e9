// SPDX-License-Identifier: MIT
#include "judge/util/size_expr.h"

#include <cctype>

namespace judge {
namespace {

class Parser {
 public:
  Parser(const std::string& text, const ScalarValues& scalars) : s_(text), vars_(scalars) {}

  Expected<int64_t> Parse() {
    int64_t v = Expr();
    Skip();
    if (error_.empty() && pos_ != s_.size()) Fail("unexpected '" + s_.substr(pos_, 1) + "'");
    if (!error_.empty()) return MakeError(ErrorCode::kBadInput, "size expression \"" + s_ + "\": " + error_);
    return v;
  }

 private:
  void Skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool Eat(char c) {
    Skip();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void Fail(const std::string& why) {
    if (error_.empty()) error_ = why;
  }

  int64_t Expr() {
    int64_t v = Term();
    for (;;) {
      if (Eat('+'))
        v += Term();
      else if (Eat('-'))
        v -= Term();
      else
        return v;
    }
  }

  int64_t Term() {
    int64_t v = Factor();
    for (;;) {
      if (Eat('*')) {
        v *= Factor();
        continue;
      }
      bool div = Eat('/');
      if (!div && !Eat('%')) return v;
      int64_t d = Factor();
      if (d == 0) {
        Fail("division by zero");
        return 0;
      }
      v = div ? v / d : v % d;
    }
  }

  int64_t Factor() {
    Skip();
    if (Eat('(')) {
      int64_t v = Expr();
      if (!Eat(')')) Fail("missing ')'");
      return v;
    }
    size_t start = pos_;
    if (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      return std::stoll(s_.substr(start, pos_ - start));
    }
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
    if (start == pos_) {
      Fail(pos_ < s_.size() ? "unexpected '" + s_.substr(pos_, 1) + "'" : "unexpected end");
      return 0;
    }
    auto it = vars_.find(s_.substr(start, pos_ - start));
    if (it == vars_.end()) {
      Fail("unknown scalar '" + s_.substr(start, pos_ - start) + "'");
      return 0;
    }
    return it->second;
  }

  const std::string& s_;
  const ScalarValues& vars_;
  size_t pos_ = 0;
  std::string error_;
};

}  // namespace

Expected<int64_t> EvalSizeExpr(const std::string& expr, const ScalarValues& scalars) {
  return Parser(expr, scalars).Parse();
}

}  // namespace judge
