// Cost: owned versus rented over time, break-even, discounting, depreciation, unit costs.
#include <capplan/capplan.hpp>
#include <capplan/cost/compare.hpp>
#include <capplan/cost/depreciation.hpp>
#include <capplan/cost/discount.hpp>
#include <capplan/cost/owned.hpp>
#include <capplan/cost/rented.hpp>
#include <capplan/cost/unit_cost.hpp>
#include <capplan/power/component.hpp>
#include <capplan/power/efficiency.hpp>

#include <doctest/doctest.h>

#include <vector>

using namespace capplan;
using namespace capplan::literals;

namespace {
double days(Duration d) { return d.value() / scale::day; }
double months(Duration d) { return d.value() / scale::month; }

// Dettmers, "Which GPU(s) to Get for Deep Learning" (2023), cloud vs desktop: a $2,200 desktop
// drawing 450 W, electricity $0.12/kWh, used 15% of the time, against a $2.14/h cloud GPU;
// no discounting, no resale.
OwnedOption dettmers_desktop() {
  return OwnedOption{.name = "desktop", .purchase = 2200_USD, .active_power = 450_W, .electricity = 0.12_USD / 1_kWh};
}
RentedOption dettmers_cloud() { return RentedOption::on_demand("cloud", 2.14_USD / 1_h); }

// 1 × RTX 4090 workstation, priced in CNY:
//  * RTX 4090 at NVIDIA's China launch price, ¥12,999 (nvidia.cn, GeForce RTX 4090, 2022-10-12);
//  * ¥8,000 for the rest (CPU, board, 64 GB RAM, SSD, 1000 W Gold PSU, case): our assumption,
//    not a published price; total ¥20,999.
// Power from the power layer: 771 W DC at full load (power_test.cpp parts), through an 80 PLUS
// Gold 1000 W PSU. Electricity ¥0.60/kWh: our round figure between Beijing's residential tiers
// (¥0.4883 / ¥0.5383 / ¥0.7883 per kWh, Beijing Municipal Commission of Development and Reform).
OwnedOption workstation_4090_cny() {
  const std::vector<PowerComponent> parts{gpu_component("RTX 4090", 450_W, 20_W),
                                          cpu_component("Core i9-13900K", 253_W, 15_W),
                                          memory_modules("DDR5 DIMM", 5_W, 2_W, 2), storage_devices("NVMe SSD", 8_W, 1_W),
                                          board_and_fans("board and fans", 50_W)};
  const auto dc = system_draw(parts, 1.0).total;
  const auto wall = wall_power(dc, 1000_W, load_efficiency_curve(EightyPlusTier::gold));
  return OwnedOption{.name = "RTX 4090 workstation",
                     .purchase = 12999_CNY + 8000_CNY,
                     .active_power = wall.wall,
                     .electricity = Money("0.60", Currency::CNY) / 1_kWh};
}
}  // namespace

TEST_SUITE("cost") {
  TEST_CASE("golden: Dettmers desktop vs cloud breaks even after about 293 days") {
    // Published: "~300 days"; reference-cases.md §5 computes 293 days. Tolerance: 1 day.
    auto c = compare_costs(dettmers_desktop(), dettmers_cloud(), {.utilization = 0.15, .horizon_months = 24});
    // Money is exact: 450 W × 0.15 × 730 h = 49.275 kWh × $0.12 = $5.913 a month;
    // 0.15 × 730 h = 109.5 h × $2.14 = $234.33 a month.
    CHECK(c.owned_month_costs.total == Money("5.913", Currency::USD));
    CHECK(c.rented_month_costs.cost == Money("234.33", Currency::USD));
    CHECK(c.owned_month_costs.total * 12 == Money("70.956", Currency::USD));  // $70.96 a year
    REQUIRE(c.break_even_month);
    CHECK(*c.break_even_month == 10);
    REQUIRE(c.break_even_time);
    CHECK(days(*c.break_even_time) == doctest::Approx(293.0).epsilon(1.0 / 293.0));
    CHECK(days(*c.break_even_time) == doctest::Approx(292.958).epsilon(1e-5));  // 2,200 / 228.417 months
    CHECK_FALSE(c.break_even_month_with_resale);
    // Cumulative money after a year, exact to the cent and beyond.
    CHECK(c.months[12].owned_cumulative == Money("2270.956", Currency::USD));
    CHECK(c.months[12].rented_cumulative == Money("2811.96", Currency::USD));
    CHECK(c.months.size() == 25);
    CHECK(c.explain().find("break-even: month 10 (9.632 months = 293 days)") != std::string::npos);
    CHECK(c.owned_month_costs.electricity.explain() == "450 W × 0.15 × 730 h = 49.27 kWh × $0.12/kWh = $5.91");  // 49.275 in binary prints 49.27
    CHECK(c.rented_month_costs.explain() == "on-demand 0.15 × 730 h = 109.5 h × $2.14/h = $234.33");
    CHECK(c.table().find("12 | $2,270.96 | $2,270.96 | $2,811.96") != std::string::npos);
  }

  TEST_CASE("golden: RTX 4090 workstation vs renting one at ¥2,000 and ¥5,000 a month") {
    // Rental prices from the scenario (1 × RTX 4090, 2,000 and 5,000 CNY/month); the
    // workstation price and electricity are stated in workstation_4090_cny(). The owner runs the
    // machine all month (utilization 1), as the renter could.
    // Hand check: wall = 771 W / 0.88374 = 872.43 W; × 730 h = 636.87 kWh × ¥0.60 = ¥382.12/month.
    //   ¥2,000: 20,999 / (2,000 − 382.12) = 12.98 months → month 13
    //   ¥5,000: 20,999 / (5,000 − 382.12) =  4.55 months → month 5
    const auto ws = workstation_4090_cny();
    CHECK(ws.purchase == 20999_CNY);
    for (auto [rent, month, exact_months] : {std::tuple{2000, 13, 12.97936}, std::tuple{5000, 5, 4.54733}}) {
      CAPTURE(rent);
      auto r = RentedOption::monthly_rental("rented RTX 4090", Money(rent, Currency::CNY));
      auto c = compare_costs(ws, r, {.utilization = 1.0, .horizon_months = 36});
      CHECK(c.owned_month_costs.total.rounded() == Money("382.12", Currency::CNY));
      CHECK(c.rented_month_costs.instances == 1);
      REQUIRE(c.break_even_month);
      CHECK(*c.break_even_month == month);
      CHECK(months(*c.break_even_time) == doctest::Approx(exact_months).epsilon(1e-5));
    }
    // With resale: straight line to ¥6,000 over 36 months, and a buyer pays 80% of book value
    // (both our assumptions). N_m = 0.2 × 20,999 + (382.12 + 0.8 × 416.64) m.
    auto ws_resale = ws;
    ws_resale.resale = Depreciation::straight_line(36, 6000_CNY);
    ws_resale.resale.resale_fraction = Decimal("0.8");
    auto c2 = compare_costs(ws_resale, RentedOption::monthly_rental("r", 2000_CNY), {.horizon_months = 36});
    REQUIRE(c2.break_even_month_with_resale);
    CHECK(*c2.break_even_month_with_resale == 4);  // 4,199.8 / 1,284.57 = 3.27 months
    CHECK(months(*c2.break_even_time_with_resale) == doctest::Approx(3.26943).epsilon(1e-4));
    CHECK(*c2.break_even_month == 13);
    CHECK(c2.explain().find("break-even: month 13 (12.98 months = 394.8 days)") != std::string::npos);
    CHECK(c2.explain().find("; with resale: month 4 (3.269 months") != std::string::npos);
    auto c5 = compare_costs(ws_resale, RentedOption::monthly_rental("r", 5000_CNY), {.horizon_months = 36});
    CHECK(*c5.break_even_month_with_resale == 1);  // 0.98 months
    CHECK(*c5.break_even_month == 5);
  }

  TEST_CASE("money stays exact end to end") {
    auto c = compare_costs(dettmers_desktop(), dettmers_cloud(), {.utilization = 0.15, .horizon_months = 120});
    // 120 months: 2,200 + 120 × 5.913 = 2,909.56 exactly; 120 × 234.33 = 28,119.6 exactly.
    CHECK(c.last().owned_cumulative == Money("2909.56", Currency::USD));
    CHECK(c.last().rented_cumulative == Money("28119.6", Currency::USD));
    CHECK(to_json_string(c.last().owned_cumulative) == "2909.56");
    Money sum(0, Currency::USD);
    for (const auto& r : c.months) sum += r.owned;
    CHECK(sum == c.last().owned_cumulative);
  }

  TEST_CASE("discount factors are Decimal with a fixed rounding rule") {
    DiscountRate r(Decimal("0.08"));
    // g^12 = 1.08 and d_12 = 1 / 1.08 to within 1e-10 (12-place rounding at each step).
    const Decimal g12 = capplan::detail::pow_int(r.monthly_growth(), 12);
    CHECK((g12 - Decimal("1.08")).abs() < Decimal("1e-10"));
    CHECK((r.factor(12) - Decimal(1) / Decimal("1.08")).abs() < Decimal("1e-10"));
    CHECK(r.factor(0) == Decimal(1));
    CHECK(r.present_value(1080_USD, 12).rounded() == 1000_USD);
    CHECK(r.factors(24)[24] == r.factor(24));
    // The same inputs give the same digits.
    CHECK(DiscountRate(Decimal("0.08")).factor(7) == r.factor(7));
    // NPV of -1000 now and +1080 in a year at 8% is 0 to the cent.
    std::vector<Money> flows(13, Money(0, Currency::USD));
    flows[0] = -1000_USD;
    flows[12] = 1080_USD;
    CHECK(npv(flows, r).rounded() == Money(0, Currency::USD));
    // Discounting delays the break-even.
    auto plain = compare_costs(dettmers_desktop(), dettmers_cloud(), {.utilization = 0.15, .horizon_months = 24});
    auto disc = compare_costs(dettmers_desktop(), dettmers_cloud(),
                              {.utilization = 0.15, .horizon_months = 24, .discount = DiscountRate(Decimal("0.10"))});
    CHECK(*disc.break_even_time > *plain.break_even_time);
    CHECK(disc.months[1].rented == Money("234.33", Currency::USD) * disc.months[1].discount_factor);
    CHECK_THROWS_WITH(DiscountRate(Decimal("-0.1")), doctest::Contains("discount_rate: -0.1 is outside [0, 1]"));
  }

  TEST_CASE("depreciation: straight line and declining balance") {
    // IRS Publication 946 ch. 4 methods; inputs illustrative.
    auto sl = Depreciation::straight_line(36, 600_USD);
    CHECK(book_value(2200_USD, sl, 0) == 2200_USD);
    CHECK(book_value(2200_USD, sl, 18) == 1400_USD);  // 2,200 − 1,600 × 18/36
    CHECK(book_value(2200_USD, sl, 36) == 600_USD);
    CHECK(book_value(2200_USD, sl, 60) == 600_USD);
    auto db = Depreciation::declining_balance(Decimal("0.4"), 300_USD);
    CHECK(book_value(2200_USD, db, 12) == 1320_USD);  // 2,200 × 0.6
    CHECK(book_value(2200_USD, db, 6) == 1760_USD);   // halfway to 1,320
    CHECK(book_value(2200_USD, db, 24) == 792_USD);   // 2,200 × 0.36
    CHECK(book_value(2200_USD, db, 120) == 300_USD);  // floor
    auto d = dettmers_desktop();
    d.resale = sl;
    auto c = compare_costs(d, dettmers_cloud(), {.utilization = 0.15, .horizon_months = 24});
    REQUIRE(c.break_even_month_with_resale);
    CHECK(*c.break_even_month_with_resale == 1);  // 5.913 + 44.44 < 234.33 in month 1
    CHECK(c.months[18].owned_net_cumulative == c.months[18].owned_cumulative - 1400_USD);
    CHECK_THROWS_WITH(book_value(2200_USD, Depreciation::straight_line(36, 3000_USD), 1),
                      doctest::Contains("depreciation.salvage: 3000 is above the purchase price"));
    CHECK_THROWS_WITH(book_value(2200_USD, Depreciation::declining_balance(Decimal("1.5")), 1),
                      doctest::Contains("depreciation.annual_rate: 1.5"));
  }

  TEST_CASE("rentals: on-demand, spot, reserved, monthly, and the same work on both sides") {
    const auto rate = 2.14_USD / 1_h;
    // A rented GPU twice as fast needs half the hours: 0.5 × 730 / 2 = 182.5 h.
    auto od = rented_month(RentedOption::on_demand("fast", rate, 2.0), 0.5);
    CHECK(od.hours_needed.value() == doctest::Approx(182.5 * 3600));
    CHECK(od.cost == Money("390.55", Currency::USD));  // 182.5 × 2.14
    // Spot at $0.80/h, 10% of the work redone after interruptions: 365 h × 1.1 = 401.5 h.
    auto sp = rented_month(RentedOption::spot("spot", Money("0.80", Currency::USD) / 1_h, 0.10), 0.5);
    CHECK(sp.cost == Money("321.2", Currency::USD));
    CHECK(sp.explain() == "spot 0.5 × 730 h = 365 h × (1 + 0.1) = 401.5 h × $0.80/h = $321.20");
    // Reserved: paid for all 730 h whatever the use.
    auto rs = rented_month(RentedOption::reserved("1-yr", Money("1.50", Currency::USD) / 1_h), 0.1);
    CHECK(rs.cost == Money("1095", Currency::USD));
    CHECK(rs.instances == 1);
    // Monthly rental of a GPU half as fast at full use: 2 instances.
    auto mo = rented_month(RentedOption::monthly_rental("slow", 2000_CNY, 0.5), 1.0);
    CHECK(mo.instances == 2);
    CHECK(mo.cost == 4000_CNY);
    // Reserved with a 1-day term (an EC2 Capacity Block): the hours needed in whole days. 0.01 x 730 h =
    // 7.3 h bills 24 h; 0.5 x 730 h = 365 h bills 16 days (384 h).
    auto block = RentedOption::reserved("block", Money("1.50", Currency::USD) / 1_h);
    block.term = 1_day;
    auto b1 = rented_month(block, 0.01);
    CHECK(b1.hours_billed.value() == doctest::Approx(24 * 3600.0));
    CHECK(b1.cost == Money("36", Currency::USD));
    CHECK(b1.explain() == "reserved 7.3 h billed 24 h (whole days) × $1.50/h = $36.00");
    CHECK(rented_month(block, 0.5).cost == Money("576", Currency::USD));
    // Another term under a month: at least the term (a 2-day term: 7.3 h bills 48 h, 365 h bills 365 h).
    block.term = 2_days;
    CHECK(rented_month(block, 0.01).explain() == "reserved 7.3 h billed 48 h (at least its 48 h term) × $1.50/h = $72.00");
    CHECK(rented_month(block, 0.5).cost == Money("547.5", Currency::USD));
    // A term of a month or more: held all month, as without a term.
    block.term = 1_year;
    CHECK(rented_month(block, 0.01).cost == Money("1095", Currency::USD));
    block.term = Duration::from_value(-1);
    CHECK_THROWS_WITH(rented_month(block, 0.5), doctest::Contains("rented.term"));
  }

  TEST_CASE("any currency, with an explicit exchange rate") {
    // The owned desktop in CNY against the cloud priced in USD: refused without a rate.
    OwnedOption d{.name = "desktop", .purchase = 15000_CNY, .active_power = 450_W,
                  .electricity = Money("0.60", Currency::CNY) / 1_kWh};
    CHECK_THROWS_AS(compare_costs(d, dettmers_cloud(), {.utilization = 0.15}), CurrencyError);
    try {
      compare_costs(d, dettmers_cloud(), {.utilization = 0.15});
    } catch (const CurrencyError& e) {
      CHECK(e.field() == "rented.currency");
      CHECK(e.value() == "USD vs CNY");
    }
    // An illustrative dated rate (not a market quote): 1 USD = 7.1 CNY.
    ExchangeRate usd_cny(Currency::USD, Currency::CNY, Decimal("7.1"), "2026-11-01", "illustrative");
    auto c = compare_costs(d, dettmers_cloud(), {.utilization = 0.15, .horizon_months = 24, .fx = usd_cny});
    CHECK(c.rented_month_converted == Money("1663.743", Currency::CNY));  // 234.33 × 7.1
    CHECK(c.explain().find("at 7.1 CNY/USD (2026-11-01)") != std::string::npos);
    ExchangeRate eur_cny(Currency::EUR, Currency::CNY, Decimal("7.7"), "2026-11-01", "illustrative");
    CHECK_THROWS_AS(compare_costs(d, dettmers_cloud(), {.fx = eur_cny}), CurrencyError);
    // One owned option uses one currency.
    auto mixed = d;
    mixed.maintenance_per_month = 10_EUR;
    CHECK_THROWS_WITH(compare_costs(mixed, RentedOption::monthly_rental("r", 2000_CNY)),
                      doctest::Contains("owned.maintenance_per_month: EUR vs purchase in CNY"));
  }

  TEST_CASE("break-even utilization") {
    // Over 12 months: owned 2,200 + 473.04 u, rented 18,746.4 u → u = 2,200 / 18,273.36.
    auto b = break_even_utilization(dettmers_desktop(), dettmers_cloud(), {.horizon_months = 12});
    REQUIRE(b.utilization);
    CHECK(*b.utilization == doctest::Approx(0.1203938).epsilon(1e-6));
    CHECK(b.owning_cheaper_above);
    CHECK(b.difference_at_0 == 2200_USD);
    CHECK(b.explain().find("break-even at utilization 0.1204 (owning is cheaper above it)") != std::string::npos);
    // A cheap monthly rental: owning never pays within 3 months.
    auto none = break_even_utilization(dettmers_desktop(), RentedOption::monthly_rental("r", 100_USD), {.horizon_months = 3});
    CHECK_FALSE(none.utilization);
    CHECK(none.explain().find("renting is cheaper at every utilization") != std::string::npos);
  }

  TEST_CASE("cost per GPU-hour, per training run, per million tokens") {
    auto run = cost_of_run(2.14_USD / 1_h, 1000_h, 8);
    CHECK(run.cost == 17120_USD);
    CHECK(run.explain() == "$2.14/h × 1,000 h × 8 GPUs = $17,120.00");
    auto c = compare_costs(dettmers_desktop(), dettmers_cloud(), {.utilization = 0.15, .horizon_months = 24});
    // Owned over 24 months: 2,200 + 24 × 5.913 = 2,341.912 for 24 × 109.5 = 2,628 busy hours.
    auto per_h = owned_cost_per_gpu_hour(c);
    CHECK(per_h.total == Money("2341.912", Currency::USD));
    CHECK(per_h.units == doctest::Approx(2628.0));
    CHECK(per_h.per_unit == Money("0.891138508371", Currency::USD));
    // A 100-hour single-GPU run on the owned desktop at that effective rate.
    CHECK(cost_of_run(per_h.rate(), 100_h, 1).cost == Money("89.1138508371", Currency::USD));
    CHECK_THROWS_WITH(cost_per_million_tokens(100_USD, 1e6).rate(), doctest::Contains("unit: \"million tokens\""));
    // The same run rented: twice as fast on-demand halves the hours; spot adds 10% redone work.
    CHECK(cost_of_run(RentedOption::on_demand("fast", 4_USD / 1_h, 2.0), 100_h, 8).cost == 1600_USD);
    CHECK(cost_of_run(RentedOption::spot("spot", 1_USD / 1_h, 0.1), 100_h, 8).cost == 880_USD);
    CHECK_THROWS_WITH(cost_of_run(RentedOption::reserved("r", 1_USD / 1_h), 100_h, 1),
                      doctest::Contains("rented.kind: reserved is priced per month"));
    auto tok = cost_per_million_tokens(Money("2341.912", Currency::USD), 2.5e9);
    CHECK(tok.per_unit == Money("0.9367648", Currency::USD));
    CHECK(tok.explain() == "$2,341.91 / 2,500 million tokens = $0.936765 per million tokens");
  }

  TEST_CASE("bad input names the field and the value") {
    auto d = dettmers_desktop();
    auto r = dettmers_cloud();
    CHECK_THROWS_WITH(compare_costs(d, r, {.horizon_months = 0}), "horizon_months: 0 is outside 1..240 (20 years)");
    CHECK_THROWS_WITH(compare_costs(d, r, {.horizon_months = -5}), "horizon_months: -5 is outside 1..240 (20 years)");
    CHECK_THROWS_WITH(compare_costs(d, r, {.utilization = 1.2}), "utilization: 1.2 is outside [0, 1]");
    auto neg = d;
    neg.purchase = -2200_USD;
    CHECK_THROWS_WITH(compare_costs(neg, r), "owned.purchase: -$2,200 is negative; it must be >= 0");
    auto neg_price = d;
    neg_price.electricity = -0.12_USD / 1_kWh;
    CHECK_THROWS_WITH(compare_costs(neg_price, r), doctest::Contains("owned.electricity: -$0.12/kWh is negative"));
    auto low_pue = d;
    low_pue.pue = 0.8;
    CHECK_THROWS_WITH(compare_costs(low_pue, r), doctest::Contains("owned.pue: 0.8 is below 1"));
    auto neg_power = d;
    neg_power.active_power = -450_W;
    CHECK_THROWS_WITH(compare_costs(neg_power, r), doctest::Contains("owned.active_power: -450 is negative"));
    CHECK_THROWS_WITH(compare_costs(d, RentedOption::on_demand("c", -2.14_USD / 1_h)),
                      doctest::Contains("rented.hourly: -$2.14/h is negative"));
    CHECK_THROWS_WITH(compare_costs(d, RentedOption::on_demand("c", 2.14_USD / 1_h, 0.0)),
                      doctest::Contains("rented.throughput_vs_owned: 0"));
    CHECK_THROWS_WITH(compare_costs(d, RentedOption::spot("s", 1_USD / 1_h, -0.1)),
                      doctest::Contains("rented.interruption_overhead: -0.1"));
    CHECK_THROWS_WITH(cost_per_million_tokens(100_USD, 0), doctest::Contains("tokens: 0 must be > 0"));
    CHECK_THROWS_WITH(cost_of_run(2.14_USD / 1_h, 10_h, 0), doctest::Contains("gpus: 0 must be a positive count"));
  }
}
