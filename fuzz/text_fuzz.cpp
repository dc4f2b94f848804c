// libFuzzer target for the text readers every flag and file goes through: quantities with units
// (each role), money, prices per hour and per kWh, exact counts, decimals and ISO dates. Any
// input must either read or throw a capplan::InputError (ParseError included); any other
// exception, a crash, a leak or undefined behaviour is a finding. What reads must be finite and
// non-negative, and exact amounts must print and read back to the same value.
#include <capplan/date.hpp>
#include <capplan/money/decimal.hpp>
#include <capplan/money/format.hpp>
#include <capplan/money/money.hpp>
#include <capplan/units/count.hpp>
#include <capplan/units/parse.hpp>
#include <capplan/units/quantity.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

[[noreturn]] void finding(const char* what) {
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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
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
  return 0;
}
