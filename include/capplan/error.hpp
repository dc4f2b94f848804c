// Exception types thrown by capplan. Every message names the field (or input) and the value.
//
//   capplan::InputError      : std::invalid_argument  bad value for a named field (Python: ValueError)
//   capplan::ParseError      : InputError             text that is not a quantity / money / count
//   capplan::CurrencyError   : InputError             two currencies mixed without an exchange rate
//   capplan::LookupError     : InputError             unknown or ambiguous name (lists close matches)
//   std::overflow_error                               exact arithmetic left its range (Python: OverflowError)
#pragma once

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace capplan {

class InputError : public std::invalid_argument {
 public:
  InputError(std::string field, std::string value, const std::string& what)
      : std::invalid_argument(what), field_(std::move(field)), value_(std::move(value)) {}
  // The input field the error is about ("memory_bandwidth", "utilization", "text").
  [[nodiscard]] const std::string& field() const noexcept { return field_; }
  // The offending value as text.
  [[nodiscard]] const std::string& value() const noexcept { return value_; }

 private:
  std::string field_;
  std::string value_;
};

class ParseError : public InputError {
 public:
  using InputError::InputError;
};

class CurrencyError : public InputError {
 public:
  using InputError::InputError;
};

class LookupError : public InputError {
 public:
  using InputError::InputError;
};

namespace detail {

inline std::string format_double(double v) {
  std::ostringstream os;
  os.precision(17);
  os << v;
  return os.str();
}

// "field: value is <problem>" in one line, e.g. "utilization: 1.5 is outside [0, 1]".
[[noreturn]] inline void fail(std::string_view field, const std::string& value, std::string_view problem) {
  std::string msg;
  msg.append(field).append(": ").append(value).append(" ").append(problem);
  throw InputError(std::string(field), value, msg);
}

// Text that does not parse as what `field` takes: 'field: "text" why' (a ParseError), e.g.
// 'price: "12 XYZ" has an unknown currency "XYZ" (known: USD, EUR, CNY, GBP, JPY)'.
[[noreturn]] inline void fail_parse(std::string_view field, std::string_view text, const std::string& why) {
  std::string msg = std::string(field) + ": \"" + std::string(text) + "\" " + why;
  throw ParseError(std::string(field), std::string(text), msg);
}

}  // namespace detail

// Checks used by every record and function that takes a plain number. Each is one inline comparison;
// the message is built out of line (detail::fail_*), since the checks run in every plan a search
// times.
namespace detail {
[[noreturn, gnu::cold, gnu::noinline]] inline void fail_not_finite(double v, std::string_view field) {
  if (std::isnan(v)) fail(field, "NaN", "is not a number");
  fail(field, v > 0 ? "inf" : "-inf", "is not finite");
}
[[noreturn, gnu::cold, gnu::noinline]] inline void fail_range(double v, std::string_view field, std::string_view problem) {
  if (!std::isfinite(v)) fail_not_finite(v, field);
  fail(field, format_double(v), problem);
}
template <class Int>
[[noreturn, gnu::cold, gnu::noinline]] void fail_count(Int v, std::string_view field) {
  fail(field, std::to_string(v), "must be a positive count");
}
}  // namespace detail

inline double require_finite(double v, std::string_view field) {
  if (!std::isfinite(v)) [[unlikely]] detail::fail_not_finite(v, field);
  return v;
}

inline double require_nonnegative(double v, std::string_view field) {
  if (!(std::isfinite(v) && v >= 0)) [[unlikely]] detail::fail_range(v, field, "is negative; it must be >= 0");
  return v;
}

inline double require_positive(double v, std::string_view field) {
  if (!(std::isfinite(v) && v > 0)) [[unlikely]] detail::fail_range(v, field, "must be > 0");
  return v;
}

inline double require_fraction(double v, std::string_view field) {
  if (!(v >= 0 && v <= 1)) [[unlikely]] detail::fail_range(v, field, "is outside [0, 1]");
  return v;
}

template <class Int>
Int require_positive_count(Int v, std::string_view field) {
  if (v <= 0) [[unlikely]] detail::fail_count(v, field);
  return v;
}

}  // namespace capplan
