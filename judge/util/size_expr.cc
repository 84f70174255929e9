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
  // a op b, or 0 after noting that it overflows: every later step is moot then.
  template <typename Op>
  int64_t Checked(Op op, int64_t a, int64_t b) {
    int64_t r = 0;
    if (op(a, b, &r)) {
      Fail("the value overflows 64-bit integers");
      return 0;
    }
    return r;
  }
  static bool Add(int64_t a, int64_t b, int64_t* r) { return __builtin_add_overflow(a, b, r); }
  static bool Sub(int64_t a, int64_t b, int64_t* r) { return __builtin_sub_overflow(a, b, r); }
  static bool Mul(int64_t a, int64_t b, int64_t* r) { return __builtin_mul_overflow(a, b, r); }

  int64_t Expr() {
    int64_t v = Term();
    while (error_.empty()) {
      if (Eat('+'))
        v = Checked(Add, v, Term());
      else if (Eat('-'))
        v = Checked(Sub, v, Term());
      else
        break;
    }
    return v;
  }

  int64_t Term() {
    int64_t v = Factor();
    while (error_.empty()) {
      if (Eat('*')) {
        v = Checked(Mul, v, Factor());
        continue;
      }
      bool div = Eat('/');
      if (!div && !Eat('%')) break;
      int64_t d = Factor();
      if (d == 0) {
        Fail("division by zero");
        return 0;
      }
      if (d == -1)
        v = div ? Checked(Sub, 0, v) : 0;  // INT64_MIN / -1 overflows; x % -1 is 0
      else
        v = div ? v / d : v % d;
    }
    return v;
  }

  int64_t Factor() {
    Skip();
    if (Eat('(')) {
      // The recursion is bounded: text nested 50,000 deep must not overflow the judge's stack.
      if (++depth_ > kMaxSizeExprDepth) {
        Fail("parentheses nested deeper than " + std::to_string(kMaxSizeExprDepth));
        return 0;
      }
      int64_t v = Expr();
      --depth_;
      if (!Eat(')')) Fail("missing ')'");
      return v;
    }
    size_t start = pos_;
    if (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      int64_t v = 0;
      bool overflowed = false;
      for (; pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_])); ++pos_)
        overflowed |= __builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, s_[pos_] - '0', &v);
      if (overflowed) Fail("the literal " + s_.substr(start, pos_ - start) + " is too large for 64-bit integers");
      return overflowed ? 0 : v;
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
  int depth_ = 0;
  std::string error_;
};

}  // namespace

Expected<int64_t> EvalSizeExpr(const std::string& expr, const ScalarValues& scalars) {
  return Parser(expr, scalars).Parse();
}

}  // namespace judge
