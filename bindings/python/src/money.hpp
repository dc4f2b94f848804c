// Python classes for capplan's exact money (capplan/money): Currency, RoundingMode, MoneyStyle,
// Money, MoneyRate (per hour), EnergyPrice (per kWh), ExchangeRate, convert and the parsers.
//
//   Money("1234.56", "USD")   Money("$1,234.56")   Money(Decimal("0.10"), "USD")   Money(5)
//   m.amount -> decimal.Decimal (exact)   str(m) -> "$1,234.56"   Money(0.1, "USD") -> TypeError
#pragma once

#include "arithmetic.hpp"
#include "convert.hpp"

#include <capplan/money/currency.hpp>
#include <capplan/money/decimal.hpp>
#include <capplan/money/format.hpp>
#include <capplan/money/money.hpp>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>

namespace capplan::python {

namespace py = pybind11;

namespace money_detail_py {

// A Currency from a Currency or a code ("USD", "usd", "RMB").
inline Currency to_currency(py::handle h) {
  if (py::isinstance<Currency>(h)) return h.cast<Currency>();
  if (is_str(h)) return parse_currency(h.cast<std::string>(), "currency");
  throw py::type_error("currency: expected a Currency or a code such as 'USD', got " + type_name(h) + " " + py_repr(h));
}

template <class M>
M parse_kind(const std::string& text) {
  if constexpr (std::is_same_v<M, Money>) return parse_money(text);
  else if constexpr (std::is_same_v<M, MoneyRate>) return parse_money_rate(text);
  else return parse_energy_price(text);
}

template <class M>
M make(const py::object& amount, const py::object& currency) {
  if (currency.is_none()) {
    // Text carries its own currency ("$1,234.56", "2.49 USD/h"); a number is in USD.
    if (is_str(amount)) return parse_kind<M>(amount.cast<std::string>());
    return M(to_decimal(amount, "amount"), Currency::USD);
  }
  return M(to_decimal(amount, "amount"), to_currency(currency));
}

template <class M>
std::string money_repr(const M& m) {
  return std::string(traits<M>::name) + "('" + m.amount().to_string() + "', '" + std::string(code(m.currency())) +
         "')";
}

}  // namespace money_detail_py

template <class M>
void bind_money_kind(py::module_& m, const char* doc, const char* init_doc) {
  namespace d = money_detail_py;
  py::class_<M> c(m, traits<M>::name, doc);
  c.def(py::init([](const py::object& amount, const py::object& currency) { return d::make<M>(amount, currency); }),
        py::arg("amount"), py::arg("currency") = py::none(), init_doc);
  c.def_static(
      "from_minor", [](long long minor, const py::object& currency) { return M::from_minor(minor, d::to_currency(currency)); },
      py::arg("minor_units"), py::arg("currency"), "From an integer count of minor units: from_minor(123456, 'USD').");
  c.def_property_readonly(
      "amount", [](const M& x) { return x.amount(); }, "The exact amount as a decimal.Decimal.");
  c.def_property_readonly("currency", &M::currency);
  c.def("is_negative", &M::is_negative);
  c.def("is_zero", &M::is_zero);
  c.def("rounded", &M::rounded, py::arg("mode") = RoundingMode::half_even,
        "Rounded to the currency's minor unit (cents), half-to-even unless told otherwise.");
  c.def("rounded_to", &M::rounded_to, py::arg("decimals"), py::arg("mode") = RoundingMode::half_even,
        "Rounded to `decimals` places (0..12).");
  c.def(
      "format",
      [](const M& x, MoneyStyle style, std::optional<bool> thousands, std::optional<int> decimals, bool exact) {
        return capplan::format(x, MoneyFormat{style, thousands, decimals.value_or(-1), exact});
      },
      py::kw_only(), py::arg("style") = MoneyStyle::symbol, py::arg("thousands") = py::none(),
      py::arg("decimals") = py::none(), py::arg("exact") = false,
      "capplan::format: '$1,234.56' (symbol style) or '1234.56 USD' (code style); rounded half-even to the "
      "currency's minor unit unless decimals or exact is given.");
  c.def("to_json_string", [](const M& x) { return capplan::to_json_string(x); },
        "Exact decimal text with every stored digit, for JSON and CSV.");
  c.def("__str__", [](const M& x) { return capplan::format(x); });
  c.def("__repr__", [](const M& x) { return d::money_repr(x); });
  c.def("__hash__", [](const M& x) {
    return py::hash(py::make_tuple(traits<M>::name, x.amount().to_string(), static_cast<int>(x.currency())));
  });
  c.def("__abs__", [](const M& x) { return M(x.amount().abs(), x.currency()); });
  def_operators<M>(c);
  c.def(py::pickle(
      [](const M& x) { return py::make_tuple(x.amount().to_string(), std::string(code(x.currency()))); },
      [](const py::tuple& t) {
        return M(Decimal::parse(t[0].cast<std::string>(), "amount"), parse_currency(t[1].cast<std::string>()));
      }));
}

inline void bind_money(py::module_& m) {
  namespace d = money_detail_py;
  py::enum_<Currency> currency(m, "Currency", "ISO 4217 currencies known to capplan.");
  refuse_unknown_values(currency, "Currency");
  currency
      .value("USD", Currency::USD)
      .value("EUR", Currency::EUR)
      .value("CNY", Currency::CNY)
      .value("GBP", Currency::GBP)
      .value("JPY", Currency::JPY)
      .def_property_readonly("code", [](Currency c) { return std::string(info(c).code); })
      .def_property_readonly("symbol", [](Currency c) { return std::string(info(c).symbol); })
      .def_property_readonly("minor_digits", [](Currency c) { return info(c).minor_digits; });
  py::enum_<RoundingMode> rounding(m, "RoundingMode", "How Money.rounded rounds; half_even (banker's) by default.");
  refuse_unknown_values(rounding, "RoundingMode");
  rounding
      .value("half_even", RoundingMode::half_even)
      .value("half_up", RoundingMode::half_up)
      .value("down", RoundingMode::down)
      .value("up", RoundingMode::up)
      .value("floor", RoundingMode::floor)
      .value("ceiling", RoundingMode::ceiling);
  py::enum_<MoneyStyle> style(m, "MoneyStyle", "'$1,234.56' (symbol) or '1234.56 USD' (code).");
  refuse_unknown_values(style, "MoneyStyle");
  style
      .value("symbol", MoneyStyle::symbol)
      .value("code", MoneyStyle::code);

  bind_money_kind<Money>(m, "An exact amount of money in one currency.",
                         "Money(amount, currency): amount as str, int, decimal.Decimal or fractions.Fraction "
                         "(never float); currency as a Currency or a code, USD when omitted. Money(text) parses "
                         "'$1,234.56', '1234.56 USD', 'EUR 12'.");
  bind_money_kind<MoneyRate>(m, "An exact amount of money per hour.",
                             "MoneyRate(amount, currency): an amount per hour. MoneyRate(text) parses '2.49 USD/h', "
                             "'$32.77/hour', '2000 CNY/month' (730 h), per day, week or year too.");
  bind_money_kind<EnergyPrice>(m, "An exact amount of money per kWh.",
                               "EnergyPrice(amount, currency): an amount per kWh. EnergyPrice(text) parses "
                               "'0.12 USD/kWh', per MWh or Wh too.");

  py::class_<ExchangeRate>(m, "ExchangeRate", "A dated exchange rate: 1 `from_` = `rate` `to`.")
      .def(py::init([](const py::object& from, const py::object& to, const Decimal& rate, const std::string& as_of,
                       const std::string& source) {
             return ExchangeRate(d::to_currency(from), d::to_currency(to), rate, as_of, source);
           }),
           py::arg("from_"), py::arg("to"), py::arg("rate"), py::arg("as_of"), py::arg("source") = "")
      .def_readonly("from_", &ExchangeRate::from)
      .def_readonly("to", &ExchangeRate::to)
      .def_readonly("rate", &ExchangeRate::rate)
      .def_readonly("as_of", &ExchangeRate::as_of)
      .def_readonly("source", &ExchangeRate::source)
      .def("inverse", &ExchangeRate::inverse)
      .def("__repr__", [](const ExchangeRate& fx) {
        return "ExchangeRate('" + std::string(code(fx.from)) + "', '" + std::string(code(fx.to)) + "', '" +
               fx.rate.to_string() + "', as_of='" + fx.as_of + "', source='" + fx.source + "')";
      });

  m.def("convert", &capplan::convert<capplan::detail::money_dimension>, py::arg("amount"), py::arg("rate"),
        "The amount in the rate's target currency (unchanged if already there).");
  m.def("convert", &capplan::convert<capplan::detail::money_rate_dimension>, py::arg("amount"), py::arg("rate"));
  m.def("convert", &capplan::convert<capplan::detail::energy_price_dimension>, py::arg("amount"), py::arg("rate"));

  m.def(
      "decimal_from_double",
      [](double v, int significant, const std::string& field) { return Decimal::from_double(v, significant, field); },
      py::arg("value"), py::arg("significant") = 15, py::arg("field") = "value",
      "A measured float (a utilization, a share) as an exact decimal.Decimal after rounding to `significant` "
      "digits (1..17): decimal_from_double(0.15 * 8760) == Decimal('1314'). capplan::Decimal::from_double.");
  m.def(
      "parse_money", [](const std::string& text, const std::string& field) { return parse_money(text, field); },
      py::arg("text"), py::arg("field") = "money", "'$1,234.56', '¥3,500', '1234.56 USD', 'EUR 12' -> Money.");
  m.def(
      "parse_money_rate",
      [](const std::string& text, const std::string& field) { return parse_money_rate(text, field); }, py::arg("text"),
      py::arg("field") = "money_rate", "'2.49 USD/h', '$98.32/hour', '2000 CNY/month' -> MoneyRate (per hour).");
  m.def(
      "parse_energy_price",
      [](const std::string& text, const std::string& field) { return parse_energy_price(text, field); },
      py::arg("text"), py::arg("field") = "energy_price", "'0.12 USD/kWh' -> EnergyPrice (per kWh).");
  m.def(
      "parse_currency", [](const std::string& text, const std::string& field) { return parse_currency(text, field); },
      py::arg("text"), py::arg("field") = "currency", "'usd', 'USD', 'RMB' -> Currency.");
}

}  // namespace capplan::python
