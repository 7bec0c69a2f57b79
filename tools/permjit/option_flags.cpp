#include "tools/permjit/option_flags.hpp"

#include <optional>
#include <string>
#include <type_traits>

namespace permjit {

namespace {
template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};
}  // namespace

void OptionFlags::add(CLI::App* cmd, const SolveOption& row, SolveOptions& target) {
  const std::string flag(row.flag), help(row.help);
  std::visit(
      [&](auto member) {
        using T = std::decay_t<decltype(target.*member)>;
        if constexpr (std::is_same_v<T, bool>) {
          cmd->add_flag(flag, target.*member, help);
        } else if constexpr (IsOptional<T>::value) {
          using V = typename T::value_type;
          V& scratch = std::get<V>(scratch_.emplace_back(V{}));
          CLI::Option* opt = cmd->add_option(flag, scratch, help);
          if (row.value_optional) opt->expected(0, 1);  // the flag alone keeps 0
          apply_.push_back([opt, &scratch, &target, member] {
            if (*opt) target.*member = scratch;
          });
        } else {
          cmd->add_option(flag, target.*member, help);
        }
      },
      row.field);
}

void OptionFlags::apply() const {
  for (const auto& f : apply_) f();
}

}  // namespace permjit
