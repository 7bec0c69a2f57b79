#include "options.hpp"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <variant>

#include "runtime/option_table.hpp"

namespace nb = nanobind;

namespace permjit::py {

namespace {

template <class T>
struct Caster {
  static T from(nb::handle v) { return nb::cast<T>(v); }
  static const char* type() {
    if constexpr (std::is_same_v<T, bool>) return "bool";
    else if constexpr (std::is_same_v<T, std::string>) return "str";
    else if constexpr (std::is_floating_point_v<T>) return "float";
    else return "int";
  }
};
template <class T>
struct Caster<std::optional<T>> {
  static std::optional<T> from(nb::handle v) {
    if (v.is_none()) return std::nullopt;
    return nb::cast<T>(v);
  }
  static const char* type() { return Caster<T>::type(); }
};

template <class Opts>
using Setter = std::function<void(Opts&, nb::handle, const std::string& name)>;

// A setter of the field `m` of `Opts` (or of `Opts::load` for a LoadOptions field).
template <class Opts, class Owner, class T>
Setter<Opts> field(T Owner::*m) {
  return [m](Opts& o, nb::handle v, const std::string& name) {
    // bool is an int in Python: refuse it where a number is meant, and a number for a flag.
    const bool is_bool = nb::isinstance<nb::bool_>(v);
    const bool wrong = Caster<T>::type() == std::string("bool") ? !is_bool
                       : Caster<T>::type() != std::string("str") ? is_bool : false;
    try {
      if (wrong) throw nb::cast_error();
      Owner* owner;
      if constexpr (std::is_same_v<Owner, Opts>) owner = &o;
      else owner = &o.load;
      owner->*m = Caster<T>::from(v);
    } catch (const nb::cast_error&) {
      const std::string given = nb::cast<std::string>(nb::handle(reinterpret_cast<PyObject*>(Py_TYPE(v.ptr()))).attr("__name__"));
      throw nb::type_error((name + " expects " + Caster<T>::type() + ", not " + given).c_str());
    }
  };
}

template <class Opts>
using Table = std::map<std::string, Setter<Opts>>;

template <class Opts>
void add_load_fields(Table<Opts>& t) {
  t["record"] = field<Opts>(&LoadOptions::instance_record);
  t["data"] = field<Opts>(&LoadOptions::data);
  t["no_symmetry"] = field<Opts>(&LoadOptions::ignore_symmetry);
}

// Every row of the option table (runtime/option_table.hpp), by its Python name.
const Table<SolveOptions>& solve_table() {
  static const Table<SolveOptions> t = [] {
    Table<SolveOptions> t;
    for (const SolveOption& row : solve_option_table())
      t[python_name(row)] = std::visit([](auto m) { return field<SolveOptions>(m); }, row.field);
    add_load_fields(t);
    return t;
  }();
  return t;
}

const Table<EmitOptions>& emit_table() {
  static const Table<EmitOptions> t = [] {
    using E = EmitOptions;
    Table<E> t{{"stage", field<E>(&E::stage)}, {"arch", field<E>(&E::arch)}, {"skeleton", field<E>(&E::skeleton)}};
    // The solve options that change the compiled code: what emit shows is what runs.
    for (const SolveOption& row : solve_option_table())
      if (row.changes_code)
        t[python_name(row)] = std::visit(
            [](auto m) -> Setter<E> {
              return [set = field<SolveOptions>(m)](E& o, nb::handle v, const std::string& n) { set(o.solve, v, n); };
            },
            row.field);
    add_load_fields(t);
    return t;
  }();
  return t;
}

const Table<CheckOptions>& check_table() {
  static const Table<CheckOptions> t = [] {
    using C = CheckOptions;
    Table<C> t{{"verify_bound", field<C>(&C::verify_bound)}, {"verify_symmetry", field<C>(&C::verify_symmetry)}};
    t["samples"] = [](C& o, nb::handle v, const std::string& n) {
      field<VerifyBoundOptions>(&VerifyBoundOptions::samples)(o.verify, v, n);
    };
    t["seed"] = [](C& o, nb::handle v, const std::string& n) {
      field<VerifyBoundOptions>(&VerifyBoundOptions::seed)(o.verify, v, n);
    };
    add_load_fields(t);
    return t;
  }();
  return t;
}

template <class Opts>
void apply_table(Opts& o, const nb::dict& kw, const Table<Opts>& table, const char* fn) {
  for (auto [k, v] : kw) {
    const std::string name = nb::cast<std::string>(k);
    auto it = table.find(name);
    if (it == table.end()) {
      std::string all;
      for (const auto& [n, s] : table) all += (all.empty() ? "" : ", ") + n;
      throw nb::type_error((std::string(fn) + "() got an unexpected keyword argument '" + name + "' (it takes: " + all +
                            ")")
                               .c_str());
    }
    it->second(o, v, std::string(fn) + "(" + name + "=)");
  }
}

}  // namespace

LoadOptions load_options(const nb::dict& load) {
  LoadOptions l;
  l.data = "auto";  // the command line's default: the module makes the CLI's choice (data=)
  l.spec_path = nb::cast<std::string>(load["spec_path"]);
  l.spec_text = nb::cast<std::optional<std::string>>(load["spec_text"]);
  l.params = nb::cast<std::vector<std::string>>(load["params"]);
  l.instance_path = nb::cast<std::string>(load["instance"]);
  for (auto [name, dims, values] :
       nb::cast<std::vector<std::tuple<std::string, std::vector<int64_t>, std::vector<int64_t>>>>(load["values"]))
    l.instance_values.push_back(InstanceValue{name, dims, values});
  return l;
}

void apply(SolveOptions& o, const nb::dict& kw, const char* fn) { apply_table(o, kw, solve_table(), fn); }
void apply(EmitOptions& o, const nb::dict& kw, const char* fn) { apply_table(o, kw, emit_table(), fn); }
void apply(CheckOptions& o, const nb::dict& kw, const char* fn) { apply_table(o, kw, check_table(), fn); }

}  // namespace permjit::py
