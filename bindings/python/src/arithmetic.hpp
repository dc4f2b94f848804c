// Python arithmetic on capplan's typed values: exactly the mixes that compile in C++ and give a
// capplan type (or a plain ratio) work; every other mix raises TypeError with a sentence that
// says what to do instead (the same advice as the C++ static_assert messages in
// capplan/units/guards.hpp and capplan/money/money.hpp).
//
// The rules are not written by hand: for each pair of bound types the C++ expression is tried
// at compile time (`requires { a * b; }`), and its result type decides:
//   a bound capplan type          -> that type         (Power * Duration -> Energy)
//   a dimensionless quantity      -> float             (DataSize / DataSize)
//   capplan::Decimal              -> decimal.Decimal   (Money / Money)
//   anything else, or no overload -> TypeError         (DataSize * DataSize, Money + MoneyRate)
// A later area that binds a new value type adds it to `Operands` and gets its mixes for free.
#pragma once

#include "convert.hpp"

#include <capplan/money/money.hpp>
#include <capplan/units/format.hpp>
#include <capplan/units/quantity.hpp>

#include <pybind11/pybind11.h>

#include <cmath>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace capplan::python {

namespace py = pybind11;

// Python-side facts about each bound value type.
template <class T>
struct traits;

#define CAPPLAN_PY_TRAITS(T, canonical_symbol, example_args)          \
  template <>                                                        \
  struct traits<T> {                                                 \
    static constexpr const char* name = #T;                          \
    static constexpr const char* canonical = canonical_symbol;       \
    static constexpr const char* example = #T "(" example_args ")";  \
  };
CAPPLAN_PY_TRAITS(DataSize, "B", "80, 'GB'")
CAPPLAN_PY_TRAITS(Duration, "s", "30, 'days'")
CAPPLAN_PY_TRAITS(FlopCount, "FLOP", "3.14e23, 'FLOP'")
CAPPLAN_PY_TRAITS(FlopRate, "FLOP/s", "989, 'TFLOP/s'")
CAPPLAN_PY_TRAITS(Bandwidth, "B/s", "3.35, 'TB/s'")
CAPPLAN_PY_TRAITS(Power, "W", "700, 'W'")
CAPPLAN_PY_TRAITS(Energy, "J", "591.3, 'kWh'")
CAPPLAN_PY_TRAITS(ArithmeticIntensity, "FLOP/B", "295, 'FLOP/B'")
CAPPLAN_PY_TRAITS(CarbonMass, "kgCO2e", "552, 'tCO2e'")
CAPPLAN_PY_TRAITS(CarbonIntensity, "kgCO2e/J", "0.429, 'kgCO2e/kWh'")
CAPPLAN_PY_TRAITS(Length, "m", "304, 'mm'")
CAPPLAN_PY_TRAITS(Money, "", "'1234.56', 'USD'")
CAPPLAN_PY_TRAITS(MoneyRate, "/h", "'2.49', 'USD'")
CAPPLAN_PY_TRAITS(EnergyPrice, "/kWh", "'0.12', 'USD'")
#undef CAPPLAN_PY_TRAITS

// Every bound type that takes part in arithmetic.
using Operands = std::tuple<DataSize, Duration, FlopCount, FlopRate, Bandwidth, Power, Energy, ArithmeticIntensity,
                            CarbonMass, CarbonIntensity, Length, Money, MoneyRate, EnergyPrice>;

template <class T, class Tuple>
struct in_tuple;
template <class T, class... Ts>
struct in_tuple<T, std::tuple<Ts...>> : std::bool_constant<(std::is_same_v<T, Ts> || ...)> {};
template <class T>
inline constexpr bool is_operand_v = in_tuple<T, Operands>::value;

template <class T>
inline constexpr bool is_money_v = false;
template <class D>
inline constexpr bool is_money_v<BasicMoney<D>> = true;

template <class T>
inline constexpr bool is_dimensionless_v = false;
template <class System, class Y>
inline constexpr bool is_dimensionless_v<boost::units::quantity<boost::units::unit<boost::units::dimensionless_type, System>, Y>> =
    true;

// Calls f.template operator()<T>() for each T in Tuple, stopping at the first that returns true.
template <class Tuple, class F>
bool any_type(F&& f) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return (f.template operator()<std::tuple_element_t<I, Tuple>>() || ...);
  }(std::make_index_sequence<std::tuple_size_v<Tuple>>{});
}

enum class ArithOp { add, sub, mul, div };

constexpr const char* symbol(ArithOp op) {
  switch (op) {
    case ArithOp::add: return "+";
    case ArithOp::sub: return "-";
    case ArithOp::mul: return "*";
    case ArithOp::div: return "/";
  }
  return "?";
}

// The C++ result type of `a op b`, or void where no operator applies (or only a refusing guard).
template <ArithOp op, class A, class B>
struct raw_result {
  using type = void;
};
template <class A, class B>
  requires requires(const A& a, const B& b) { a + b; }
struct raw_result<ArithOp::add, A, B> {
  using type = std::remove_cvref_t<decltype(std::declval<const A&>() + std::declval<const B&>())>;
};
template <class A, class B>
  requires requires(const A& a, const B& b) { a - b; }
struct raw_result<ArithOp::sub, A, B> {
  using type = std::remove_cvref_t<decltype(std::declval<const A&>() - std::declval<const B&>())>;
};
template <class A, class B>
  requires requires(const A& a, const B& b) { a * b; }
struct raw_result<ArithOp::mul, A, B> {
  using type = std::remove_cvref_t<decltype(std::declval<const A&>() * std::declval<const B&>())>;
};
template <class A, class B>
  requires requires(const A& a, const B& b) { a / b; }
struct raw_result<ArithOp::div, A, B> {
  using type = std::remove_cvref_t<decltype(std::declval<const A&>() / std::declval<const B&>())>;
};

template <ArithOp op, class A, class B>
using result_t = typename raw_result<op, A, B>::type;

template <class R>
inline constexpr bool usable_result_v = is_operand_v<R> || is_dimensionless_v<R> || std::is_same_v<R, Decimal>;

// True when `a op b` compiles in C++ and gives a capplan type or a ratio.
template <ArithOp op, class A, class B>
inline constexpr bool defined_v = usable_result_v<result_t<op, A, B>>;

template <class R>
constexpr const char* result_name() {
  if constexpr (is_operand_v<R>) return traits<R>::name;
  else if constexpr (std::is_same_v<R, Decimal>) return "decimal.Decimal";
  else return "float";
}

template <ArithOp op, class A, class B>
auto apply(const A& a, const B& b) {
  if constexpr (op == ArithOp::add) return a + b;
  else if constexpr (op == ArithOp::sub) return a - b;
  else if constexpr (op == ArithOp::mul) return a * b;
  else return a / b;
}

// A quantity that arithmetic made NaN or infinite (DataSize / 0, x * nan): an InputError, as the
// constructors refuse those values; money is exact and never needs this.
template <class R>
const R& finite_result(const R& r, const std::string& expr) {
  if constexpr (!is_money_v<R> && !std::is_same_v<R, Decimal>) {
    if (!std::isfinite(r.value())) {
      detail::fail(expr, detail::format_double(r.value()), "is not a finite result (a division by zero, an overflow or a NaN operand)");
    }
  }
  return r;
}

template <class R>
py::object to_python(const R& r) {
  finite_result(r, "result");
  if constexpr (is_operand_v<R>) return py::cast(r);
  else if constexpr (std::is_same_v<R, Decimal>) return to_py_decimal(r);
  else return py::float_(r.value());
}

// "DataSize / Bandwidth -> Duration, DataSize / Duration -> Bandwidth, ..." for A on the left.
template <class A>
std::string defined_mixes() {
  std::string out;
  auto add = [&](ArithOp op, const char* b, const char* r) {
    out += out.empty() ? "" : ", ";
    out += std::string(traits<A>::name) + " " + symbol(op) + " " + b + " -> " + r;
  };
  any_type<Operands>([&]<class B>() {
    if constexpr (defined_v<ArithOp::mul, A, B>) add(ArithOp::mul, traits<B>::name, result_name<result_t<ArithOp::mul, A, B>>());
    if constexpr (defined_v<ArithOp::div, A, B>) add(ArithOp::div, traits<B>::name, result_name<result_t<ArithOp::div, A, B>>());
    return false;
  });
  return out;
}

// The TypeError message for `a op b` with both sides capplan types and no usable result.
template <ArithOp op, class A, class B>
std::string mix_error() {
  std::string msg = std::string("capplan: ") + traits<A>::name + " " + symbol(op) + " " + traits<B>::name + ": ";
  constexpr bool qa = !is_money_v<A>, qb = !is_money_v<B>;
  if constexpr (op == ArithOp::add || op == ArithOp::sub) {
    const char* verb = op == ArithOp::add ? "add" : "subtract";
    if constexpr (qa && qb) {
      msg += std::string("cannot ") + verb +
             " quantities of different dimensions. Only like quantities " + (op == ArithOp::add ? "add" : "subtract") +
             "; multiply or divide to get the quantity you mean (Power * Duration -> Energy, DataSize / Bandwidth -> "
             "Duration).";
    } else if constexpr (!qa && !qb) {
      msg += std::string("cannot ") + verb +
             " different kinds of money. Multiply a MoneyRate by a Duration (or an EnergyPrice by an Energy) to get "
             "Money first.";
    } else {
      msg += std::string("cannot ") + verb + " money and a physical quantity.";
    }
    return msg;
  } else {
    if constexpr (std::is_same_v<A, MoneyRate> && op == ArithOp::mul) {
      msg += "a MoneyRate is money per hour; multiply it by a Duration (e.g. MoneyRate('2.49 USD/h') * "
             "Duration(30, 'days')).";
    } else if constexpr (std::is_same_v<A, EnergyPrice> && op == ArithOp::mul) {
      msg += "an EnergyPrice is money per kWh; multiply it by an Energy (e.g. Power * Duration).";
    } else if constexpr (std::is_same_v<A, Money> && qb && op == ArithOp::mul) {
      msg += "Money times a physical quantity has no meaning here; divide Money by a Duration to get a MoneyRate, "
             "or by an Energy to get an EnergyPrice.";
    } else if constexpr (!std::is_void_v<result_t<op, A, B>>) {
      msg += "the result has a unit that is not one of capplan's quantities.";
    } else {
      msg += "this mix has no meaning in capplan.";
    }
    const std::string mixes = defined_mixes<A>();
    msg += mixes.empty() ? std::string(" Only plain numbers multiply and divide a ") + traits<A>::name + "."
                         : " Defined: " + mixes + ".";
    return msg;
  }
}

// Tries `a op other` for each bound type of `other`; nullopt-like empty object when `other` is
// not a capplan value.
template <ArithOp op, class A>
py::object with_operand(const A& a, py::handle other) {
  py::object result;
  any_type<Operands>([&]<class B>() {
    if (!py::isinstance<B>(other)) return false;
    if constexpr (defined_v<op, A, B>) {
      result = to_python(apply<op>(a, other.cast<const B&>()));
    } else {
      throw py::type_error(mix_error<op, A, B>());
    }
    return true;
  });
  return result;
}

// sum() starts from the int 0: say how to give it a start of the right type.
inline std::string sum_hint(const std::string& name, ArithOp op, py::handle number, bool reflected) {
  if (op != ArithOp::add || !reflected || !is_integral(number) || !number.equal(py::int_(0))) {
    return "";
  }
  return "; to sum " + name + " values, give sum() a start: sum(values, " + name + ".from_value(0))";
}

inline std::string number_error(const char* a, ArithOp op, py::handle number, bool reflected) {
  const std::string n = type_name(number);
  const std::string expr = reflected ? n + " " + symbol(op) + " " + a : std::string(a) + " " + symbol(op) + " " + n;
  return "capplan: " + expr + ": cannot " + (op == ArithOp::add ? "add" : "subtract") +
         " a plain number to a quantity. Give the number a unit (DataSize(80, 'GB'), Duration(1, 'h'), "
         "Power(700, 'W'))" + sum_hint(a, op, number, reflected) + ".";
}

// `q op other` (or `other op q` when reflected) for a physical quantity q.
template <class Q, ArithOp op>
py::object quantity_op(const Q& q, py::handle other, bool reflected) {
  if (!reflected) {
    if (py::object r = with_operand<op>(q, other)) return r;
  }
  if (is_real(other)) {
    const double k = py::float_(py::reinterpret_borrow<py::object>(other));
    const std::string expr = std::string(traits<Q>::name) + " " + symbol(op) + " " + type_name(other);
    if constexpr (op == ArithOp::mul) return py::cast(finite_result(Q(q * k), expr));
    if constexpr (op == ArithOp::div) {
      if (!reflected) return py::cast(finite_result(Q(q / k), expr));
      throw py::type_error(std::string("capplan: ") + type_name(other) + " / " + traits<Q>::name +
                           ": the result (per " + traits<Q>::canonical + ") is not one of capplan's quantities.");
    }
    if constexpr (op == ArithOp::add || op == ArithOp::sub) throw py::type_error(number_error(traits<Q>::name, op, other, reflected));
  }
  return py::reinterpret_borrow<py::object>(Py_NotImplemented);
}

// `m op other` (or `other op m` when reflected) for an amount of money m.
template <class M, ArithOp op>
py::object money_op(const M& m, py::handle other, bool reflected) {
  if (!reflected) {
    if (py::object r = with_operand<op>(m, other)) return r;
  }
  const bool exact_number = is_integral(other) || is_py_decimal(other) || is_rational(other);
  if (exact_number || is_real(other)) {
    const std::string expr = reflected ? type_name(other) + " " + symbol(op) + " " + traits<M>::name
                                       : std::string(traits<M>::name) + " " + symbol(op) + " " + type_name(other);
    if constexpr (op == ArithOp::add || op == ArithOp::sub) {
      std::string hint;
      if (op == ArithOp::add && reflected && is_integral(other) && other.equal(py::int_(0))) {
        hint = "; to sum amounts, give sum() a start: sum(amounts, " + std::string(traits<M>::name) + "(0, 'USD'))";
      }
      throw py::type_error("capplan: " + expr + ": cannot " + (op == ArithOp::add ? "add" : "subtract") +
                           " a plain number to money. Give it a currency: Money('12.50', 'USD')" + hint + ".");
    }
    if (!exact_number) {
      throw py::type_error("capplan: " + expr +
                           ": money times a float would not be exact. Multiply by an int, a decimal.Decimal or a "
                           "fractions.Fraction (Decimal('0.15'), Fraction(3, 20)).");
    }
    if (op == ArithOp::div && reflected) {
      throw py::type_error("capplan: " + expr + ": a number divided by money has no meaning in capplan.");
    }
    const Decimal k = to_decimal(other, "factor");
    if constexpr (op == ArithOp::mul) return py::cast(M(m * k));
    if constexpr (op == ArithOp::div) return py::cast(M(m / k));
  }
  return py::reinterpret_borrow<py::object>(Py_NotImplemented);
}

// Rich comparison: same type only. Equality with a non-capplan object is False; equality or
// ordering against another capplan type, and ordering against a number, raise TypeError.
template <class T>
py::object compare(const T& a, py::handle other, int op) {
  if (py::isinstance<T>(other)) {
    const T& b = other.cast<const T&>();
    bool r = false;
    switch (op) {
      case Py_EQ: r = a == b; break;
      case Py_NE: r = !(a == b); break;
      case Py_LT: r = a < b; break;
      case Py_LE: r = a <= b; break;
      case Py_GT: r = a > b; break;
      case Py_GE: r = a >= b; break;
      default: break;
    }
    return py::bool_(r);
  }
  const bool eq = op == Py_EQ || op == Py_NE;
  bool other_is_capplan = false;
  std::string other_name;
  any_type<Operands>([&]<class B>() {
    if (!py::isinstance<B>(other)) return false;
    other_is_capplan = true;
    other_name = traits<B>::name;
    return true;
  });
  if (other_is_capplan) {
    throw py::type_error(std::string("capplan: cannot compare ") + traits<T>::name + " with " + other_name +
                         (is_money_v<T> ? ": they are different kinds of money."
                                        : ": they are quantities of different dimensions. To compare compute with "
                                          "memory traffic, compare arithmetic intensities (FlopCount / DataSize) "
                                          "with the ridge point (FlopRate / Bandwidth)."));
  }
  if (!eq && (is_real(other) || is_py_decimal(other))) {
    throw py::type_error(std::string("capplan: cannot compare ") + traits<T>::name + " with a plain number (" +
                         py_repr(other) + "); give the number a unit, e.g. " + traits<T>::example + ".");
  }
  return py::reinterpret_borrow<py::object>(Py_NotImplemented);
}

// Defines the arithmetic and comparison dunders shared by quantities and money on class c.
template <class T, class Class>
void def_operators(Class& c) {
  constexpr bool money = is_money_v<T>;
  auto def = [&]<ArithOp op>(const char* name, const char* rname) {
    c.def(name, [](const T& a, py::object other) {
      if constexpr (money) return money_op<T, op>(a, other, false);
      else return quantity_op<T, op>(a, other, false);
    });
    c.def(rname, [](const T& a, py::object other) {
      if constexpr (money) return money_op<T, op>(a, other, true);
      else return quantity_op<T, op>(a, other, true);
    });
  };
  def.template operator()<ArithOp::add>("__add__", "__radd__");
  def.template operator()<ArithOp::sub>("__sub__", "__rsub__");
  def.template operator()<ArithOp::mul>("__mul__", "__rmul__");
  def.template operator()<ArithOp::div>("__truediv__", "__rtruediv__");
  c.def("__eq__", [](const T& a, py::object o) { return compare(a, o, Py_EQ); });
  c.def("__ne__", [](const T& a, py::object o) { return compare(a, o, Py_NE); });
  c.def("__lt__", [](const T& a, py::object o) { return compare(a, o, Py_LT); });
  c.def("__le__", [](const T& a, py::object o) { return compare(a, o, Py_LE); });
  c.def("__gt__", [](const T& a, py::object o) { return compare(a, o, Py_GT); });
  c.def("__ge__", [](const T& a, py::object o) { return compare(a, o, Py_GE); });
  c.def("__neg__", [](const T& a) { return T(-a); });
  c.def("__pos__", [](const T& a) { return a; });
}

}  // namespace capplan::python
