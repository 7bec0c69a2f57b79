// The arithmetic whose C++ form is undefined for some operands (division by zero,
// INT_MIN / -1, shifts by a count outside the word) gets the prelude's defined form,
// unless value_range proves the operands safe: a division by a constant keeps its
// plain (and fast) form. The results are those of docs/reliability.md, the same on
// the host and the device, and the static evaluator's.
#include "generator/emit_expr.hpp"

namespace permjit {

bool ExprEmitter::in_word(const Expr& e) {
  const int width = spec_.set_bits;  // Mask's (emit_layout.cpp)
  return value_range(e, env_).within(0, width - 1);
}

std::optional<std::string> ExprEmitter::defined_arith(const Expr& e, const std::string& l, const std::string& r) {
  const std::string& op = e.text;
  if (e.type == Type::int_ && (op == "/" || op == "%")) {
    ValueRange d = value_range(*e.args[1], env_);
    if (d.known && (d.lo > 0 || d.hi < -1)) return std::nullopt;  // neither 0 nor -1
    return std::string(op == "/" ? "pj::div(" : "pj::rem(") + l + ", " + r + ")";
  }
  if (op != "<<" && op != ">>") return std::nullopt;
  if (e.type == Type::int_) {
    if (value_range(*e.args[1], env_).within(0, 31)) {  // in unsigned: no overflow of a negative
      if (op == "<<") return "int(unsigned(" + l + ") << " + r + ")";
      return wide_ ? "(int(" + l + ") >> " + r + ")" : std::optional<std::string>();  // a 32-bit shift
    }
    return std::string(op == "<<" ? "pj::shl(" : "pj::shr(") + l + ", " + r + ")";
  }
  if (e.type != Type::bits || in_word(*e.args[1])) return std::nullopt;
  std::string s = std::string(op == "<<" ? "pj::shl_bits<Mask>(" : "pj::shr_bits<Mask>(") + l + ", " + r + ")";
  return op == "<<" ? "(" + s + " & kAll)" : s;  // values past size-1 leave the set
}

}  // namespace permjit
