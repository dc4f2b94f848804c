// The text readers every flag and file goes through, fed one fuzz input: quantities with units (each
// role), money, prices per hour and per kWh, exact counts, decimals and ISO dates. Each must read or
// throw capplan::InputError; what reads must be finite and non-negative, and exact amounts must print
// and read back to the same value. Any other outcome aborts (a finding). Used by text_fuzz.cpp and,
// so that every fuzz run covers them, by catalog_fuzz.cpp.
#pragma once

#include <capplan/date.hpp>
#include <capplan/money/decimal.hpp>
#include <capplan/money/format.hpp>
#include <capplan/money/money.hpp>
#include <capplan/units/count.hpp>
#include <capplan/units/parse.hpp>
#include <capplan/units/quantity.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace capplan_fuzz {

[[noreturn]] inline void finding(const char* what) {
  std::fputs(what, stderr);
  std::fputc('\n', stderr);
  std::abort();
}

template <class F>
void attempt(F&& f) {
  try {
    f();
  } catch (const capplan::InputError&) {
    // The documented outcome for bad text.
  }
}

template <class Q>
void quantity(std::string_view text) {
  attempt([&] {
    const Q q = capplan::parse<Q>(text, "fuzz");
    if (!std::isfinite(q.value()) || q.value() < 0) finding("a parsed quantity is not finite and >= 0");
  });
}

inline void text_readers(std::string_view text) {
  quantity<capplan::DataSize>(text);
  quantity<capplan::Bandwidth>(text);
  quantity<capplan::Duration>(text);
  quantity<capplan::Power>(text);
  quantity<capplan::Energy>(text);
  quantity<capplan::FlopCount>(text);
  quantity<capplan::FlopRate>(text);
  quantity<capplan::CarbonMass>(text);
  quantity<capplan::CarbonIntensity>(text);
  attempt([&] {
    const capplan::Money m = capplan::parse_money(text, "fuzz");
    if (capplan::Decimal::parse(capplan::to_json_string(m)) != m.amount()) finding("money does not print and read back");
  });
  attempt([&] { (void)capplan::parse_money_rate(text, "fuzz"); });
  attempt([&] { (void)capplan::parse_energy_price(text, "fuzz"); });
  attempt([&] {
    const capplan::Decimal d = capplan::Decimal::parse(text, "fuzz");
    if (capplan::Decimal::parse(d.to_string()) != d) finding("a decimal does not print and read back");
  });
  attempt([&] {
    const capplan::Count c = capplan::parse_count(text, "fuzz");
    if (c < 0) finding("a parsed count is negative");
    (void)capplan::count_to_double(c, "fuzz");
  });
  attempt([&] { (void)capplan::parse_iso_date(text, "fuzz"); });
}

}  // namespace capplan_fuzz
