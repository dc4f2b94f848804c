// capplan tco: owning versus renting over months, with the break-even month.
#include "args.hpp"
#include "commands.hpp"
#include "context.hpp"
#include "output.hpp"

#include <capplan/cost/compare.hpp>
#include <capplan/detail/text.hpp>
#include <capplan/plan/catalog_tco.hpp>
#include <capplan/money/format.hpp>
#include <capplan/report/cost_chart.hpp>
#include <capplan/report/cost_output.hpp>
#include <capplan/report/table.hpp>
#include <capplan/units/format.hpp>
#include <capplan/units/literals.hpp>

#include <CLI/CLI.hpp>

#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace capplan::cli {

namespace {

struct TcoArgs {
  std::string gpu;               // a catalog GPU: its price, power and cheapest rent fill the flags not given
  int gpus = 1;
  std::string price;             // owned purchase
  std::string power = "0";       // wall power while busy
  std::string idle_power = "0";  // wall power while idle (0: switched off)
  std::string cloud_price;       // per hour or per month
  std::string owned_name = "owned";
  std::string rented_name = "rented";
  std::string electricity = "0.12";
  std::string currency = "USD";
  std::string rent_currency;     // default: same as --currency
  double utilization = 1.0;
  int months = 36;
  std::optional<std::string> discount_rate;
  std::optional<std::string> resale_fraction;
  std::optional<std::string> fx;
  std::string fx_date;
  double pue = 1.0;
  double throughput = 1.0;
  // Which flags were given (CLI11's counts), so that --gpu fills only the others.
  bool price_given = false, power_given = false, cloud_price_given = false, currency_given = false;
  bool owned_name_given = false, rented_name_given = false, gpus_given = false, rent_currency_given = false, electricity_given = false;
};

// "--price 25000-30000" (or "$25,000–30,000", as `catalog list` prints a street-price range): the
// low and the high end; a single price has no high end.
std::pair<std::string, std::optional<std::string>> price_range(const std::string& text) {
  const std::string dash = "\u2013";
  std::size_t at = text.find(dash);
  std::size_t width = dash.size();
  if (at == std::string::npos) {
    at = text.find('-', 1);  // not a leading minus sign (refused as negative by the money reader)
    width = 1;
  }
  if (at == std::string::npos) return {text, std::nullopt};
  return {text.substr(0, at), text.substr(at + width)};
}

// --gpu ID [--gpus N]: the figures the flags did not give, from the catalog (plan/catalog_tco.hpp),
// as values (never through flag text): the purchase (N x the street price, else the launch price; the
// GPUs only, an SoC as its entry prices it), the busy wall power (GPUs and host, as train and compare count it) and the cheapest USD
// rent of N GPUs for a month at --utilization (whole instances; monthly and reserved as sold). Each
// figure taken is said in a note; the entries it rests on are checked for stale prices.
struct FromCatalog {
  std::optional<Money> purchase, purchase_high;
  std::optional<Power> power;
  std::optional<RentedOption> rented;
  std::vector<std::string> notes;
  std::vector<std::string> entries;  // "gpu rtx-4090", "cloud offer runpod-rtx-4090": for the warnings
  nlohmann::ordered_json json;       // "catalog" in the JSON output: what was taken, for programs
};

FromCatalog from_catalog(TcoArgs& a, const Context& ctx) {
  FromCatalog f;
  if (a.gpu.empty()) {
    if (a.gpus_given) detail::fail("--gpus", std::to_string(a.gpus), "needs --gpu (the catalog GPU it counts)");
    for (const auto& [given, flag] : {std::pair{a.price_given, "--price"}, std::pair{a.cloud_price_given, "--cloud-price"}}) {
      if (!given) detail::fail(flag, "(not given)", "is required without --gpu (or pass --gpu ID to take price, power and rent from the catalog)");
    }
    return f;
  }
  if (a.gpus < 1 || a.gpus > (1 << 20)) detail::fail("--gpus", std::to_string(a.gpus), "is outside 1 to 1,048,576");
  const double u = fraction_arg(a.utilization, "--utilization");
  if (!(u > 0)) detail::fail("--utilization", format_number(u, 4), "must be > 0 with --gpu (the rent is chosen for the hours used)");
  const Catalog& cat = ctx.catalog();
  const GpuSpec& g = cat.find_gpu(a.gpu);
  const CatalogTco t = catalog_tco(cat, g, a.gpus, u);
  const std::string what = std::to_string(a.gpus) + " x " + g.id;
  f.entries.push_back("gpu " + g.id);
  f.json["gpu"] = g.id;
  f.json["gpus"] = a.gpus;
  // Every figure the catalog cannot give, at once.
  std::vector<std::string> missing;
  if (!a.price_given && !t.purchase) missing.push_back("no street or launch price (pass --price)");
  if (!a.power_given && !t.power.known) missing.push_back("no published power figure (pass --power)");
  if (!a.cloud_price_given && !t.rent_per_gpu_hour) {
    std::string why;
    for (std::string o : t.rent_left_out) {
      // offers_left_out's hint is compare's --fx form (CNY=RATE@DATE); tco's --fx converts a rent given by hand.
      if (const std::size_t hint = o.find(": --fx "); hint != std::string::npos) o = o.substr(0, hint) + ")";
      why += (why.empty() ? "; offers left out: " : ", ") + o;
    }
    missing.push_back("no USD rent" + why + " (pass --cloud-price; another currency with --rent-currency, --fx and --fx-date)");
  }
  if (!missing.empty()) {
    std::string m;
    for (const std::string& x : missing) m += (m.empty() ? "" : "; ") + x;
    detail::fail("--gpu", g.id, "has in the catalog " + m);
  }
  if (!a.price_given) {
    if (a.currency_given && parse_currency(a.currency, "--currency") != t.purchase->currency()) {
      detail::fail("--currency", a.currency, "differs from the catalog price of " + g.id + " (" + std::string(code(t.purchase->currency())) +
                                                 "); leave --currency out or pass --price");
    }
    a.currency = std::string(code(t.purchase->currency()));
    f.purchase = t.purchase;
    f.purchase_high = t.purchase_high;
    f.notes.push_back("Purchase from the catalog: " + what + " at its " + t.price_source +
                      (g.form_factor == FormFactor::soc ? std::string("; an SoC's price is taken as its catalog entry gives it (the built-in DGX Spark's "
                                                                                  "is its whole box)")
                                                        : std::string("; the GPUs only (a host is priced by capplan build, or give "
                                                                      "the whole machine with --price)")) +
                      "." +
                      (t.launch_price ? " A launch price is what the part cost new, not what it sells for now." : ""));
    f.json["price_source"] = t.price_source;
    f.json["bought_gpus"] = t.bought_gpus > 0 ? t.bought_gpus : a.gpus;  // whole baseboards of an SXM or OAM module
  }
  if (!a.power_given) {
    f.power = t.power.total;
    f.notes.push_back("Busy wall power from the catalog: " + t.power.basis + " (plan/it_power.hpp, as train and compare count it).");
    f.json["power_basis"] = t.power.basis;
  }
  if (!a.cloud_price_given) {
    if (a.rent_currency_given && parse_currency(a.rent_currency, "--rent-currency") != Currency::USD) {
      detail::fail("--rent-currency", a.rent_currency, "differs from the catalog's rent, in USD; leave it out or pass --cloud-price in " + a.rent_currency);
    }
    a.rent_currency = "USD";
    f.rented = rented_option(t);
    if (a.rented_name_given) f.rented->name = a.rented_name;
    f.rented->throughput_vs_owned = a.throughput;
    const std::string price = f.rented->kind == PriceKind::monthly ? format(*f.rented->monthly) + " a month" : format(f.rented->hourly);
    f.notes.push_back("Rent from the catalog: " + t.rent_source + ", " + price + " for " + std::to_string(t.rent_billed_gpus) +
                      (t.rent_billed_gpus == 1 ? " GPU" : " GPUs") + ": the cheapest for a month used " + format_number(u, 4) +
                      " of the time (an hourly price bills the hours used; a monthly rental the month).");
    f.entries.push_back("cloud offer " + t.rent_offer);
    f.json["rent_offer"] = t.rent_offer;
    f.json["rent_kind"] = std::string(name(*t.rent_kind));
    f.json["rent_billed_gpus"] = t.rent_billed_gpus;
  }
  if (!a.owned_name_given) a.owned_name = what;
  return f;
}

Result run_tco(TcoArgs a, const Context& ctx) {
  FromCatalog cat = from_catalog(a, ctx);
  const Currency cur = parse_currency(a.currency, "--currency");
  const Currency rent_cur = a.rent_currency.empty() ? cur : parse_currency(a.rent_currency, "--rent-currency");
  months_arg(a.months, "--months");
  pue_arg(a.pue, "--pue");
  ratio_arg(a.throughput, 1000, "--throughput");
  // The default tariff is a US one: in another currency the number would be read as that currency's.
  if (!a.electricity_given && cur != Currency::USD) {
    detail::fail("--electricity", "(not given)", "is required for a purchase in " + std::string(code(cur)) + " (the default, 0.12, is a US tariff in USD)");
  }
  OwnedOption owned;
  owned.name = a.owned_name;
  std::optional<Money> purchase_high;
  if (cat.purchase) {
    owned.purchase = *cat.purchase;
    purchase_high = cat.purchase_high;
  } else if (const auto [price_low, price_high] = price_range(a.price); price_high) {
    // Text that does not read as two prices is read (and refused) whole, so the error quotes it all.
    try {
      owned.purchase = money_arg(price_low, cur, "--price");
      purchase_high = money_arg(*price_high, cur, "--price");
    } catch (const InputError&) {
      owned.purchase = money_arg(a.price, cur, "--price");
    }
    if (purchase_high && *purchase_high < owned.purchase) detail::fail("--price", a.price, "is a range whose high end is below its low end");
  } else {
    owned.purchase = money_arg(a.price, cur, "--price");
  }
  owned.active_power = cat.power ? *cat.power : quantity_arg<Power>(a.power, "W", "--power");
  owned.idle_power = quantity_arg<Power>(a.idle_power, "W", "--idle-power");
  // A machine or a cluster: at most a gigawatt (the largest data-centre campuses); with --electricity at
  // most 10,000 a kWh and prices at most 1e15, every bill stays within exact money's range.
  const std::string power_text = cat.power ? format(*cat.power) + " from --gpu " + a.gpu : a.power;
  for (const auto& [w, text, flag] : {std::tuple{owned.active_power, power_text, cat.power ? "--gpus" : "--power"},
                                      std::tuple{owned.idle_power, a.idle_power, "--idle-power"}})
    if (w.value() > 1e9) detail::fail(flag, text, "is above 1 GW");
  if (owned.idle_power > owned.active_power) {
    detail::fail("--idle-power", a.idle_power, "is above " + (cat.power ? "the busy power " : std::string("--power ")) + "(" + power_text +
                                                 "); idle draw cannot exceed busy draw");
  }
  owned.pue = a.pue;
  owned.electricity = energy_price_arg(a.electricity, cur, "--electricity");
  if (a.resale_fraction) {
    const Decimal f = Decimal::parse(*a.resale_fraction, "--resale-fraction");
    if (f.is_negative() || f > Decimal(1)) detail::fail("--resale-fraction", f.to_string(), "is outside [0, 1]");
    // Straight-line from the purchase price down to F × price at the end of the horizon.
    owned.resale = Depreciation::straight_line(a.months, owned.purchase * f);
  }
  // A monthly price ("2000 CNY/month") is a monthly rental; anything else an hourly rate.
  RentedOption rented = cat.rented ? *cat.rented : [&] {
    const bool monthly = a.cloud_price.find("/month") != std::string::npos || a.cloud_price.find("/mo") != std::string::npos;
    if (monthly) {
      const MoneyRate per_hour = money_rate_arg(a.cloud_price, rent_cur, "--cloud-price");
      (void)per_hour;  // validated; the exact monthly amount is re-read below
      const std::string amount = a.cloud_price.substr(0, a.cloud_price.find('/'));
      return RentedOption::monthly_rental(a.rented_name, money_arg(amount, rent_cur, "--cloud-price"), a.throughput);
    }
    return RentedOption::on_demand(a.rented_name, money_rate_arg(a.cloud_price, rent_cur, "--cloud-price"), a.throughput);
  }();
  CompareOptions o;
  o.utilization = fraction_arg(a.utilization, "--utilization");
  o.horizon_months = a.months;
  if (a.discount_rate) {
    const Decimal rate = Decimal::parse(*a.discount_rate, "--discount-rate");
    if (rate.is_negative() || rate > Decimal(1)) detail::fail("--discount-rate", *a.discount_rate, "is outside [0, 1]; write 0.08 for 8% a year");
    o.discount = DiscountRate(rate);
  }
  if (a.fx) {
    if (rented.currency() == owned.currency()) {
      detail::fail("--fx", *a.fx, "is not needed: the rent and the purchase are both in " + std::string(code(owned.currency())));
    }
    if (a.fx_date.empty()) detail::fail("--fx-date", "\"\"", "is required with --fx: an exchange rate must be dated");
    parse_iso_date(a.fx_date, "--fx-date");
    // --fx R: one unit of the rental's currency is R units of the owned currency.
    o.fx = ExchangeRate(rented.currency(), owned.currency(), Decimal::parse(*a.fx, "--fx"), a.fx_date, "--fx");
  }
  if (rented.currency() != owned.currency() && !o.fx) {
    const std::string v = std::string(code(rented.currency())) + " rent, " + std::string(code(owned.currency())) + " owned";
    throw CurrencyError("--fx", v, "--fx: " + v + "; pass --fx RATE --fx-date DATE (1 " +
                                       std::string(code(rented.currency())) + " = RATE " + std::string(code(owned.currency())) + ")");
  }
  const CostComparison c = compare_costs(owned, rented, o);
  // A price range: the same comparison at its high end (street prices vary), shown beside the low end.
  std::optional<CostComparison> high;
  if (purchase_high) {
    OwnedOption h = owned;
    h.purchase = *purchase_high;
    if (a.resale_fraction) h.resale = Depreciation::straight_line(a.months, h.purchase * Decimal::parse(*a.resale_fraction, "--resale-fraction"));
    high = compare_costs(h, rented, o);
  }

  Result r;
  const std::string cc = capplan::detail::lower_ascii(code(cur));
  const bool resale = owned.resale.method != DepreciationMethod::none;

  Table summary;
  // Named options read "Owning RTX 4090 versus renting H100 on demand"; without names, "Owning versus renting";
  // a side without a name of its own (the default label) is left unnamed.
  summary.title = "Owning" + (owned.name != "owned" ? " " + owned.name : std::string()) + " versus renting" +
                  (rented.name != "rented" ? " " + rented.name : std::string()) + " over " + std::to_string(a.months) + " months";
  summary.columns = {{"item", "Item", Align::left}, {"value", "Value", Align::right}};
  auto money_cell = [](const Money& m) {
    return Cell::of_money(format(m), to_json_string(m), m.amount().to_double());
  };
  auto when = [&](const std::optional<int>& m, const std::optional<Duration>& t) {
    if (!m) return Cell::of_text("not within " + std::to_string(a.months) + " months");
    return Cell::of_number("month " + std::to_string(*m) + " (" + format(*t, {.significant = 3}) + ")",
                           static_cast<double>(*m));
  };
  const auto range_cell = [&](const Money& low, const std::optional<Money>& hi) {
    Cell cell = money_cell(low);
    if (hi) cell.text += " to " + format(*hi);
    return cell;
  };
  summary.add_row({Cell::of_text("Owned: purchase"), range_cell(owned.purchase, purchase_high)});
  summary.add_row({Cell::of_text("Owned: running cost per month"), money_cell(c.owned_month_costs.total)});
  summary.add_row({Cell::of_text("Rented: cost per month"), money_cell(c.rented_month_converted)});
  summary.add_row({Cell::of_text("Break-even"), when(c.break_even_month, c.break_even_time)});
  if (high) summary.add_row({Cell::of_text("Break-even at the high price"), when(high->break_even_month, high->break_even_time)});
  if (resale) summary.add_row({Cell::of_text("Break-even with resale"), when(c.break_even_month_with_resale, c.break_even_time_with_resale)});
  summary.add_row({Cell::of_text("Owned after " + std::to_string(a.months) + " months"),
                   range_cell(c.last().owned_cumulative, high ? std::optional<Money>(high->last().owned_cumulative) : std::nullopt)});
  if (resale) summary.add_row({Cell::of_text("Owned net of resale"), money_cell(c.last().owned_net_cumulative)});
  summary.add_row({Cell::of_text("Rented after " + std::to_string(a.months) + " months"), money_cell(c.last().rented_cumulative)});
  summary.notes.push_back("Utilization " + format_number(a.utilization, 4) + "; electricity " + format(owned.electricity) +
                          "; PUE " + format_number(a.pue, 3) + (o.discount ? "; discount rate " + o.discount->annual().to_string() + "/year" : "; no discounting") +
                          (resale ? "; straight-line resale to " + *a.resale_fraction + " of the price" : "; no resale"));
  summary.notes.push_back("Method: owned = purchase + monthly running cost; rented = monthly rent; break-even = first month owned <= rented (docs/cost.md).");
  summary.notes.insert(summary.notes.end(), cat.notes.begin(), cat.notes.end());
  // Only with --gpu: without it the command reads no catalog (a bad --catalog file cannot stop it).
  const nlohmann::ordered_json warnings = cat.entries.empty() ? nlohmann::ordered_json::array() : entry_warnings(ctx, cat.entries, summary.notes);
  if (high) {
    summary.notes.push_back("--price is a range: each figure at its low end, then at its high end (\"to\"); JSON gives the high end's comparison under "
                            "\"high_price\".");
  }
  r.tables.push_back(summary);

  Table series;
  series.title = "Cumulative cost by month";
  series.columns = {{"month", "Month", Align::right}, {"owned_cumulative_" + cc, "Owned", Align::right}};
  if (resale) series.columns.push_back({"owned_net_cumulative_" + cc, "Owned net of resale", Align::right});
  series.columns.push_back({"rented_cumulative_" + cc, "Rented", Align::right});
  for (const auto& m : c.months) {
    std::vector<Cell> row{Cell::of_number(std::to_string(m.month), m.month), money_cell(m.owned_cumulative)};
    if (resale) row.push_back(money_cell(m.owned_net_cumulative));
    row.push_back(money_cell(m.rented_cumulative));
    series.add_row(std::move(row));
  }
  r.tables.push_back(series);
  LineChart chart = cost_chart(c);
  if (high) {
    // The high end's owned line beside the low end's; the marker stays at the low end's break-even.
    ChartSeries s{"Owned at the high price", {}, {}};
    for (const MonthRow& m : high->months) {
      s.x.push_back(m.month);
      s.y.push_back(m.owned_cumulative.amount().to_double());
    }
    chart.series.insert(chart.series.begin() + 1, std::move(s));
  }
  r.charts.push_back(render_svg(chart));

  r.json = to_json(cost_output(c, summary.notes));
  if (!cat.json.empty()) r.json["catalog"] = cat.json;
  if (!cat.entries.empty()) r.json["warnings"] = warnings;
  if (high) r.json["high_price"] = to_json(cost_output(*high));
  r.explanation = lines_of(c.explain());
  if (high) {
    r.explanation.push_back("At the high end of --price:");
    for (std::string& line : lines_of(high->explain())) r.explanation.push_back(std::move(line));
  }
  return r;
}

}  // namespace

void add_tco(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<TcoArgs>();
  auto* cmd = app.add_subcommand("tco", "Owning versus renting over months, with the break-even month");
  cmd->footer(
      "Examples:\n"
      "  capplan tco --price 2200 --power 450 --cloud-price 2.14 --utilization 0.15 \\\n"
      "      --electricity 0.12 --months 24\n"
      "  capplan tco --currency CNY --price 20999 --power 872 --electricity 0.60 \\\n"
      "      --cloud-price '2000 CNY/month'\n"
      "  capplan tco --price 2200 --power 450 --cloud-price '1.80 EUR/h' --rent-currency EUR \\\n"
      "      --fx 1.08 --fx-date 2026-11-01\n"
      "  capplan tco --price 25000-30000 --power 1100 --cloud-price 2.99 --utilization 0.5\n"
      "  capplan tco --gpu rtx-4090 --gpus 2 --utilization 0.3      # price, power and rent from the catalog");
  cmd->add_option("--gpu", args->gpu,
                  "A catalog GPU: the flags not given come from the catalog (--price: N x its street price, the GPUs only (an SoC: as its entry prices it); --power: "
                  "GPUs and host at the wall; --cloud-price: its cheapest hourly USD rent for N GPUs, whole instances)");
  auto* gpus = cmd->add_option("--gpus", args->gpus, "How many of --gpu (default 1)");
  auto* price = cmd->add_option("--price", args->price,
                                "Purchase price of the owned hardware (e.g. 2200 or '$2,200'), or a range LOW-HIGH ('25000-30000', as catalog "
                                "list prints a street-price range): every figure at both ends; required without --gpu");
  auto* power = cmd->add_option("--power", args->power, "Wall power while busy (e.g. 450 or '450 W')");
  cmd->add_option("--idle-power", args->idle_power, "Wall power while idle (default 0: switched off)");
  auto* cloud_price = cmd->add_option("--cloud-price", args->cloud_price,
                                      "Rent: per hour (2.14, '2.14 USD/h') or per month ('2000 CNY/month'); required without --gpu");
  cmd->add_option("--utilization", args->utilization, "Busy share of the time, 0..1 (default 1)");
  auto* electricity = cmd->add_option("--electricity", args->electricity, "Electricity price per kWh (default 0.12 USD; required in another currency)");
  cmd->add_option("--months", args->months, "Horizon in months (default 36)");
  auto* currency = cmd->add_option("--currency", args->currency, "Currency of the owned side (default USD; with --gpu, its price's)");
  auto* rent_currency = cmd->add_option("--rent-currency", args->rent_currency, "Currency of the rent (default: --currency)");
  cmd->add_option("--fx", args->fx, "Exchange rate: one unit of the rent's currency in the owned currency");
  cmd->add_option("--fx-date", args->fx_date, "Date of the exchange rate (required with --fx)");
  cmd->add_option("--discount-rate", args->discount_rate, "Annual discount rate, e.g. 0.08 (default: none)");
  cmd->add_option("--resale-fraction", args->resale_fraction, "Resale value at the horizon as a fraction of the price");
  cmd->add_option("--pue", args->pue, "Power usage effectiveness (default 1.0 at home)");
  cmd->add_option("--throughput", args->throughput, "Rented hardware speed relative to owned (default 1)");
  auto* owned_name = cmd->add_option("--owned-name", args->owned_name, "Label of the owned option, e.g. '2 x RTX 4090'");
  auto* rented_name = cmd->add_option("--rented-name", args->rented_name, "Label of the rented option, e.g. 'H100 on demand'");
  cmd->callback([=, &ctx] {
    TcoArgs a = *args;
    a.price_given = price->count() > 0;
    a.power_given = power->count() > 0;
    a.cloud_price_given = cloud_price->count() > 0;
    a.currency_given = currency->count() > 0;
    a.owned_name_given = owned_name->count() > 0;
    a.rented_name_given = rented_name->count() > 0;
    a.gpus_given = gpus->count() > 0;
    a.rent_currency_given = rent_currency->count() > 0;
    a.electricity_given = electricity->count() > 0;
    write(run_tco(a, ctx), ctx);
  });
}

}  // namespace capplan::cli
