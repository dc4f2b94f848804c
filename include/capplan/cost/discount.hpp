// Cost of capital: discount factors and net present value, in exact Decimal.
//
//   DiscountRate r(Decimal("0.08"));          // 8% a year, effective
//   r.factor(12) == 1 / 1.08 (to 1e-11);  r.present_value(1080_USD, 12) == $1,000.00 (rounded)
//
// The one place exactness needs a rule. A monthly factor needs a 12th root, which has no exact
// decimal form, so capplan fixes the rule:
//   g   = (1 + r)^(1/12), found by Newton's method in Decimal, every step rounded half-even
//         at 12 decimal places, until a step changes nothing;
//   d_m = 1 / g^m, g^m by repeated Decimal multiplication, each product rounded half-even at
//         12 places, then one Decimal division (rounded the same way).
// So d_12 equals 1 / (1 + r) within about 1e-11, and a present value is Money × d_m rounded at
// 12 places: the same inputs always give the same digits, on every platform.
// Cash flows are at month ends: month 0 (the purchase) is not discounted (Brealey, Myers &
// Allen, "Principles of Corporate Finance", ch. 2: PV = C_t / (1 + r)^t).
#pragma once

#include "capplan/error.hpp"
#include "capplan/money/money.hpp"

#include <string>
#include <vector>

namespace capplan {

namespace detail {
inline Decimal pow_int(const Decimal& x, int n) {
  Decimal r(1);
  for (int i = 0; i < n; ++i) r = r * x;
  return r;
}
// The n-th root of a > 0 by Newton's method in Decimal: x ← x − (x^n − a) / (n · x^(n−1)).
inline Decimal nth_root(const Decimal& a, int n) {
  Decimal x = Decimal(1) + (a - Decimal(1)) / Decimal(n);  // first-order guess, close for rates near 0
  for (int i = 0; i < 200; ++i) {
    const Decimal xn1 = pow_int(x, n - 1);
    const Decimal next = x - (xn1 * x - a) / (Decimal(n) * xn1);
    if ((next - x).abs() <= Decimal::from_raw(1)) {
      x = next;
      break;
    }
    x = next;
  }
  return x;
}
}  // namespace detail

class DiscountRate {
 public:
  // An effective annual rate: Decimal("0.08") for 8%. Must be in [0, 1].
  explicit DiscountRate(Decimal annual) : annual_(annual) {
    if (annual_.is_negative() || annual_ > Decimal(1)) {
      detail::fail("discount_rate", annual_.to_string(), "is outside [0, 1]; write 0.08 for 8% a year");
    }
    growth_ = detail::nth_root(Decimal(1) + annual_, 12);  // g = (1 + r)^(1/12)
  }

  [[nodiscard]] const Decimal& annual() const noexcept { return annual_; }
  // (1 + r)^(1/12), the monthly growth factor.
  [[nodiscard]] const Decimal& monthly_growth() const noexcept { return growth_; }

  // d_m = 1 / g^m for month m >= 0 (d_0 = 1).
  [[nodiscard]] Decimal factor(int month) const {
    if (month < 0) detail::fail("month", std::to_string(month), "must be >= 0");
    return Decimal(1) / detail::pow_int(growth_, month);
  }
  // factors 0..months, computed incrementally with the same rounding as factor().
  [[nodiscard]] std::vector<Decimal> factors(int months) const {
    std::vector<Decimal> out{};
    Decimal g_m(1);
    for (int m = 0; m <= months; ++m) {
      out.push_back(Decimal(1) / g_m);
      g_m = g_m * growth_;
    }
    return out;
  }
  [[nodiscard]] Money present_value(const Money& amount, int month) const { return amount * factor(month); }

 private:
  Decimal annual_{};
  Decimal growth_{};
};

// Net present value of month-end cash flows (index = month, index 0 undiscounted):
// NPV = Σ_m C_m × d_m.
inline Money npv(const std::vector<Money>& flows, const DiscountRate& rate) {
  if (flows.empty()) detail::fail("cash_flows", "[]", "is empty");
  Money total(0, flows.front().currency());
  const auto d = rate.factors(static_cast<int>(flows.size()) - 1);
  for (std::size_t m = 0; m < flows.size(); ++m) total += flows[m] * d[m];
  return total;
}

}  // namespace capplan
