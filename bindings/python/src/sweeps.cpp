// NumPy sweeps: the library's scalar formulas evaluated over grids of inputs.
//
// Every argument is a number or an array of numbers (converted to float64); the arrays broadcast
// against each other by NumPy's rules, and each result is a float64 array of the broadcast shape
// in a canonical unit named in its key (time_s, energy_kwh, usd). Each element is computed by the
// same C++ functions the scalar API uses (training_flops, run_energy, the units' arithmetic), with
// the GIL released. Money in a sweep is float64 US dollars, approximate and meant for plots and
// screening; exact Money stays in the scalar API (compare_costs, cost_of_run, electricity_cost).
//
// Bad input raises capplan.InputError (a ValueError) naming the argument and the element:
// "gpus[2]: -1 must be > 0"; arrays that do not broadcast raise ValueError naming both.
#include "areas.hpp"

#include <capplan/compute/flops.hpp>
#include <capplan/cost/compare.hpp>
#include <capplan/error.hpp>
#include <capplan/power/energy.hpp>
#include <capplan/units/count.hpp>
#include <capplan/units/literals.hpp>
#include <capplan/units/quantity.hpp>

#include <pybind11/numpy.h>

#include <algorithm>
#include <climits>
#include <initializer_list>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace capplan::python {

namespace {

using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;
using ssize = py::ssize_t;

// What an argument's elements must be.
enum class Rule {
  positive,     // > 0
  nonnegative,  // >= 0
  fraction,     // in [0, 1]
  mfu,          // in (0, 1]
  pue,          // >= 1 (power/energy.hpp)
  whole,        // a positive whole number (parameter and token counts)
  gpus,         // a positive whole number that fits an int
  months,       // a whole number of months, 1 to max_horizon_months (240)
};

struct Arg {
  std::string name;
  Rule rule = Rule::nonnegative;
  Array array;
  const double* data = nullptr;
  std::vector<ssize> shape;
  std::vector<ssize> step;  // element step per output dimension; 0 where broadcast
};

Arg make_arg(const char* name, const py::object& value, Rule rule) {
  Arg a;
  a.name = name;
  a.rule = rule;
  if (value.is_none()) throw py::type_error(std::string(name) + ": None is not a number");
  // NumPy would read "7e9" and b"7" as numbers: text is not a number here.
  if (py::isinstance<py::str>(value) || py::isinstance<py::bytes>(value) || py::isinstance<py::bytearray>(value)) {
    throw py::type_error(std::string(name) + ": " + std::string(py::repr(value)) + " is text, not a number");
  }
  if (py::isinstance<py::array>(value)) {
    const char kind = py::reinterpret_borrow<py::array>(value).dtype().kind();
    if (kind != 'f' && kind != 'i' && kind != 'u' && kind != 'b') {
      throw py::type_error(std::string(name) + ": an array of dtype kind '" + std::string(1, kind) +
                           "' is not an array of real numbers");
    }
  }
  a.array = Array::ensure(value);
  if (!a.array) {
    PyErr_Clear();
    throw py::type_error(std::string(name) + ": expected a number or an array of numbers, got " +
                         std::string(py::str(py::type::handle_of(value).attr("__name__"))));
  }
  a.data = a.array.data();
  a.shape.assign(a.array.shape(), a.array.shape() + a.array.ndim());
  return a;
}

std::string shape_text(const std::vector<ssize>& s) {
  std::string t = "(";
  for (std::size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
  return t + (s.size() == 1 ? ",)" : ")");
}

// NumPy broadcasting of every argument's shape; ValueError naming the two that clash.
std::vector<ssize> broadcast(std::vector<Arg>& args) {
  std::size_t nd = 0;
  for (const Arg& a : args) nd = std::max(nd, a.shape.size());
  std::vector<ssize> out(nd, 1);
  std::vector<const Arg*> owner(nd, nullptr);
  for (const Arg& a : args) {
    const std::size_t off = nd - a.shape.size();
    for (std::size_t d = 0; d < a.shape.size(); ++d) {
      const ssize n = a.shape[d];
      if (n == 1) continue;
      if (out[off + d] == 1) {
        out[off + d] = n;
        owner[off + d] = &a;
      } else if (out[off + d] != n) {
        throw py::value_error("shape mismatch: " + a.name + " has shape " + shape_text(a.shape) + " and " +
                              owner[off + d]->name + " has shape " + shape_text(owner[off + d]->shape) +
                              "; they do not broadcast together");
      }
    }
  }
  for (Arg& a : args) {
    const std::size_t off = nd - a.shape.size();
    a.step.assign(nd, 0);
    ssize stride = 1;
    for (std::size_t d = a.shape.size(); d-- > 0;) {
      a.step[off + d] = a.shape[d] == 1 ? 0 : stride;
      stride *= a.shape[d];
    }
  }
  return out;
}

// "params[2, 1]" for flat element i of an argument ("params" for a scalar).
std::string element_name(const Arg& a, ssize i) {
  if (a.shape.empty()) return a.name;
  std::vector<ssize> idx(a.shape.size());
  for (std::size_t d = a.shape.size(); d-- > 0;) {
    idx[d] = i % a.shape[d];
    i /= a.shape[d];
  }
  std::string s = a.name + "[";
  for (std::size_t d = 0; d < idx.size(); ++d) s += (d ? ", " : "") + std::to_string(idx[d]);
  return s + "]";
}

bool ok(double v, Rule r) {
  switch (r) {
    case Rule::positive: return std::isfinite(v) && v > 0;
    case Rule::nonnegative: return std::isfinite(v) && v >= 0;
    case Rule::fraction: return std::isfinite(v) && v >= 0 && v <= 1;
    case Rule::mfu: return std::isfinite(v) && v > 0 && v <= 1;
    case Rule::pue: return std::isfinite(v) && v >= 1;
    case Rule::whole: return std::isfinite(v) && v > 0 && std::floor(v) == v && v <= max_input_count;
    case Rule::gpus: return std::isfinite(v) && v >= 1 && std::floor(v) == v && v <= INT_MAX;
    case Rule::months: return std::isfinite(v) && v >= 1 && std::floor(v) == v && v <= max_horizon_months;
  }
  return false;
}

// Throws the library's InputError for a bad element, with the element named as the field.
[[noreturn]] void reject(const Arg& a, ssize i) {
  const double v = a.data[i];
  const std::string field = element_name(a, i);
  switch (a.rule) {
    case Rule::positive: require_positive(v, field); break;
    case Rule::nonnegative: require_nonnegative(v, field); break;
    case Rule::fraction: require_fraction(v, field); break;
    case Rule::mfu:
      require_positive(v, field);
      detail::fail(field, detail::format_double(v), "is outside (0, 1]");
    case Rule::pue: require_pue(v, field); break;
    case Rule::whole:
      require_positive(v, field);
      capplan::to_count(v, field);
      detail::fail(field, detail::format_double(v), "is absurd (more than 1e18)");
    case Rule::gpus:
    case Rule::months:
      require_positive(v, field);
      capplan::to_count(v, field);
      if (v < 1) detail::fail(field, detail::format_double(v), "must be at least 1");
      if (a.rule == Rule::months)
        detail::fail(field, detail::format_double(v), "is more than " + std::to_string(max_horizon_months) + " months (20 years), as compare_costs allows");
      detail::fail(field, detail::format_double(v), "is too large (at most 2147483647)");
  }
  detail::fail(field, detail::format_double(v), "is not a valid sweep input");
}

void validate(const std::vector<Arg>& args) {
  for (const Arg& a : args) {
    const ssize n = a.array.size();
    for (ssize i = 0; i < n; ++i) {
      if (!ok(a.data[i], a.rule)) reject(a, i);
    }
  }
}

// Calls f(values, i) for every element i of the broadcast shape, values[j] being argument j's
// element there: an odometer over the outer dimensions (broadcast dimensions step by 0) and a
// tight loop over the last one, where only the arguments that vary along it are reloaded.
template <class F>
void for_each(const std::vector<Arg>& args, const std::vector<ssize>& shape, F&& f) {
  const std::size_t k = args.size();
  const std::size_t nd = shape.size();
  ssize n = 1;
  for (ssize s : shape) n *= s;
  if (n == 0) return;
  std::vector<double> v(k);
  if (nd == 0) {
    for (std::size_t j = 0; j < k; ++j) v[j] = args[j].data[0];
    f(v.data(), 0);
    return;
  }
  const ssize inner = shape[nd - 1];
  std::vector<std::size_t> varying;  // arguments that change along the last dimension
  for (std::size_t j = 0; j < k; ++j) {
    if (args[j].step[nd - 1] != 0) varying.push_back(j);
  }
  std::vector<ssize> idx(nd - 1, 0);
  std::vector<ssize> off(k, 0);
  for (ssize base = 0; base < n; base += inner) {
    for (std::size_t j = 0; j < k; ++j) v[j] = args[j].data[off[j]];
    for (ssize r = 0; r < inner; ++r) {
      for (std::size_t j : varying) v[j] = args[j].data[off[j] + r * args[j].step[nd - 1]];
      f(v.data(), base + r);
    }
    for (std::size_t d = nd - 1; d-- > 0;) {
      ++idx[d];
      for (std::size_t j = 0; j < k; ++j) off[j] += args[j].step[d];
      if (idx[d] < shape[d]) break;
      for (std::size_t j = 0; j < k; ++j) off[j] -= args[j].step[d] * shape[d];
      idx[d] = 0;
    }
  }
}

struct Outputs {
  std::vector<std::string> names;
  std::vector<py::array_t<double>> arrays;
  std::vector<double*> data;

  Outputs(std::vector<std::string> keys, const std::vector<ssize>& shape) : names(std::move(keys)) {
    for (std::size_t i = 0; i < names.size(); ++i) {
      arrays.emplace_back(shape);
      data.push_back(arrays.back().mutable_data());
    }
  }
  // Inputs in range can still combine into an infinity (a peak of 1e-308 FLOP/s): an error
  // naming the output and the element, never an inf in a result. `may_be_inf`: outputs where inf
  // means "never" (a break-even beyond the horizon).
  void require_finite(std::initializer_list<std::string_view> may_be_inf = {}) const {
    for (std::size_t k = 0; k < names.size(); ++k) {
      if (std::find(may_be_inf.begin(), may_be_inf.end(), names[k]) != may_be_inf.end()) continue;
      const ssize n = arrays[k].size();
      for (ssize i = 0; i < n; ++i) {
        if (!std::isfinite(data[k][i])) {
          detail::fail(names[k] + "[" + std::to_string(i) + "]", detail::format_double(data[k][i]),
                       "is out of range: the inputs combine into a value beyond a double (check peaks, MFU and counts)");
        }
      }
    }
  }
  [[nodiscard]] py::dict dict() const {
    py::dict d;
    for (std::size_t i = 0; i < names.size(); ++i) d[py::str(names[i])] = arrays[i];
    return d;
  }
};

constexpr double kwh = scale::kilo * scale::watt_hour;  // J per kWh
constexpr double inf = std::numeric_limits<double>::infinity();

// A validated whole double as an exact Count (through a 64-bit integer where it fits: faster).
Count whole(double v, std::string_view field) {
  if (v < 9.2e18) return Count(static_cast<std::int64_t>(v));
  return capplan::to_count(v, field);
}

// 6 N D (Kaplan et al. 2020, §2.1), exact in integers, then rounded to the nearest double.
double six_nd(double params, double tokens) {
  return static_cast<double>(training_flops(whole(params, "params"), whole(tokens, "tokens")));
}

// six_nd for a run of elements: grids usually vary GPU count or price fastest, so consecutive
// elements share (params, tokens) and the exact product is computed once per distinct pair.
class SixNd {
 public:
  double operator()(double params, double tokens) {
    if (params != params_ || tokens != tokens_) {
      flops_ = six_nd(params, tokens);
      params_ = params;
      tokens_ = tokens;
    }
    return flops_;
  }

 private:
  double params_ = -1, tokens_ = -1, flops_ = 0;
};

// time = 6 N D / (GPUs x peak x MFU): the simple model of `capplan compare --mfu`.
double time_at_mfu(double flops, double gpus, double peak, double mfu) {
  const Duration t = FlopCount::from_value(flops) / (FlopRate::from_value(peak) * (gpus * mfu));
  return t.value();
}

// Facility energy in kWh of a run at `power_w` (E = P x t x PUE, power/energy.hpp).
double energy_kwh(double power_w, double time_s, double utilization, double idle_w, double pue) {
  EnergyOptions o;
  o.utilization = utilization;
  o.idle_power = Power::from_value(idle_w);
  o.pue = pue;
  return run_energy(Power::from_value(power_w), Duration::from_value(time_s), o).facility_energy.value() / kwh;
}

py::array_t<double> sweep_training_flops(const py::object& params, const py::object& tokens) {
  std::vector<Arg> args;
  args.push_back(make_arg("params", params, Rule::whole));
  args.push_back(make_arg("tokens", tokens, Rule::whole));
  const auto shape = broadcast(args);
  Outputs out({"flops"}, shape);
  {
    py::gil_scoped_release nogil;
    validate(args);
    double* f = out.data[0];
    SixNd flops;
    for_each(args, shape, [&](const double* v, ssize i) { f[i] = flops(v[0], v[1]); });
  }
  out.require_finite();
  return out.arrays[0];
}

py::array_t<double> sweep_training_time(const py::object& params, const py::object& tokens, const py::object& gpus,
                                        const py::object& peak_flops_per_s, const py::object& mfu) {
  std::vector<Arg> args;
  args.push_back(make_arg("params", params, Rule::whole));
  args.push_back(make_arg("tokens", tokens, Rule::whole));
  args.push_back(make_arg("gpus", gpus, Rule::gpus));
  args.push_back(make_arg("peak_flops_per_s", peak_flops_per_s, Rule::positive));
  args.push_back(make_arg("mfu", mfu, Rule::mfu));
  const auto shape = broadcast(args);
  Outputs out({"time_s"}, shape);
  {
    py::gil_scoped_release nogil;
    validate(args);
    double* t = out.data[0];
    SixNd flops;
    for_each(args, shape, [&](const double* v, ssize i) { t[i] = time_at_mfu(flops(v[0], v[1]), v[2], v[3], v[4]); });
  }
  out.require_finite();
  return out.arrays[0];
}

py::array_t<double> sweep_run_energy(const py::object& power_w, const py::object& time_s, const py::object& utilization,
                                     const py::object& idle_power_w, const py::object& pue) {
  std::vector<Arg> args;
  args.push_back(make_arg("power_w", power_w, Rule::nonnegative));
  args.push_back(make_arg("time_s", time_s, Rule::nonnegative));
  args.push_back(make_arg("utilization", utilization, Rule::fraction));
  args.push_back(make_arg("idle_power_w", idle_power_w, Rule::nonnegative));
  args.push_back(make_arg("pue", pue, Rule::pue));
  const auto shape = broadcast(args);
  Outputs out({"energy_kwh"}, shape);
  {
    py::gil_scoped_release nogil;
    validate(args);
    double* e = out.data[0];
    for_each(args, shape, [&](const double* v, ssize i) { e[i] = energy_kwh(v[0], v[1], v[2], v[3], v[4]); });
  }
  out.require_finite();
  return out.arrays[0];
}

py::dict sweep_training(const py::object& params, const py::object& tokens, const py::object& gpus,
                        const py::object& peak_flops_per_s, const py::object& mfu, const py::object& gpu_power_w,
                        const py::object& pue, const py::object& usd_per_gpu_hour, const py::object& usd_per_kwh) {
  std::vector<Arg> args;
  args.push_back(make_arg("params", params, Rule::whole));
  args.push_back(make_arg("tokens", tokens, Rule::whole));
  args.push_back(make_arg("gpus", gpus, Rule::gpus));
  args.push_back(make_arg("peak_flops_per_s", peak_flops_per_s, Rule::positive));
  args.push_back(make_arg("mfu", mfu, Rule::mfu));
  args.push_back(make_arg("gpu_power_w", gpu_power_w, Rule::nonnegative));
  args.push_back(make_arg("pue", pue, Rule::pue));
  args.push_back(make_arg("usd_per_gpu_hour", usd_per_gpu_hour, Rule::nonnegative));
  args.push_back(make_arg("usd_per_kwh", usd_per_kwh, Rule::nonnegative));
  const auto shape = broadcast(args);
  Outputs out({"flops", "time_s", "gpu_hours", "energy_kwh", "rent_usd", "electricity_usd"}, shape);
  {
    py::gil_scoped_release nogil;
    validate(args);
    double* const* o = out.data.data();
    SixNd six_nd_of;
    for_each(args, shape, [&](const double* v, ssize i) {
      const double flops = six_nd_of(v[0], v[1]);
      const double t = time_at_mfu(flops, v[2], v[3], v[4]);
      const double gpu_hours = v[2] * t / scale::hour;
      const double e = energy_kwh(v[2] * v[5], t, 1.0, 0.0, v[6]);
      o[0][i] = flops;
      o[1][i] = t;
      o[2][i] = gpu_hours;
      o[3][i] = e;
      o[4][i] = v[7] * gpu_hours;  // rate x GPU-hours (cost/unit_cost.hpp, cost_of_run)
      o[5][i] = v[8] * e;          // price x facility energy (power/energy.hpp, electricity_cost)
    });
  }
  out.require_finite();
  return out.dict();
}

// Owning versus renting on demand, month by month at constant costs (cost/compare.hpp without
// discounting or resale): owned O_m = P + m x run, rented R_m = m x rent; the break-even month is
// the first m with O_m <= R_m, the break-even time P / (rent - run) months (compare.hpp's linear
// interpolation, exact for constant monthly costs); both inf when not within the horizon.
py::dict sweep_rent_vs_own(const py::object& purchase_usd, const py::object& active_power_w,
                           const py::object& usd_per_kwh, const py::object& rent_usd_per_hour,
                           const py::object& utilization, const py::object& horizon_months,
                           const py::object& idle_power_w, const py::object& pue,
                           const py::object& maintenance_usd_per_month, const py::object& space_usd_per_month) {
  std::vector<Arg> args;
  args.push_back(make_arg("purchase_usd", purchase_usd, Rule::nonnegative));
  args.push_back(make_arg("active_power_w", active_power_w, Rule::nonnegative));
  args.push_back(make_arg("usd_per_kwh", usd_per_kwh, Rule::nonnegative));
  args.push_back(make_arg("rent_usd_per_hour", rent_usd_per_hour, Rule::nonnegative));
  args.push_back(make_arg("utilization", utilization, Rule::fraction));
  args.push_back(make_arg("horizon_months", horizon_months, Rule::months));
  args.push_back(make_arg("idle_power_w", idle_power_w, Rule::nonnegative));
  args.push_back(make_arg("pue", pue, Rule::pue));
  args.push_back(make_arg("maintenance_usd_per_month", maintenance_usd_per_month, Rule::nonnegative));
  args.push_back(make_arg("space_usd_per_month", space_usd_per_month, Rule::nonnegative));
  const auto shape = broadcast(args);
  Outputs out({"owned_monthly_usd", "rented_monthly_usd", "owned_total_usd", "rented_total_usd", "break_even_month",
               "break_even_time_months"},
              shape);
  {
    py::gil_scoped_release nogil;
    validate(args);
    double* const* o = out.data.data();
    for_each(args, shape, [&](const double* v, ssize i) {
      const double purchase = v[0], u = v[4], horizon = v[5];
      if (v[6] > v[1])  // as the CLI's tco refuses --idle-power above --power
        detail::fail("idle_power_w", detail::format_double(v[6]), "is above active_power_w (" + detail::format_double(v[1]) + "); idle draw cannot exceed busy draw");
      // owned_month (cost/owned.hpp): electricity over 730 h at utilization u, plus maintenance and space.
      const double run = v[2] * energy_kwh(v[1], scale::month, u, v[6], v[7]) + v[8] + v[9];
      // rented_month on demand (cost/rented.hpp): rate x u x 730 h.
      const double rent = v[3] * (u * scale::month / scale::hour);
      double month = inf, when = inf;
      if (purchase <= 0) {
        month = 0;
        when = 0;
      } else if (rent > run) {
        const double x = purchase / (rent - run);
        double m = std::ceil(x);
        if (m > 1 && purchase + (m - 1) * run <= (m - 1) * rent) m -= 1;  // rounding at a whole month
        if (m <= horizon) {
          month = m;
          when = x;
        }
      }
      o[0][i] = run;
      o[1][i] = rent;
      o[2][i] = purchase + horizon * run;
      o[3][i] = horizon * rent;
      o[4][i] = month;
      o[5][i] = when;
    });
  }
  out.require_finite({"break_even_month", "break_even_time_months"});
  return out.dict();
}

}  // namespace

void bind_sweeps(py::module_& m) {
  using namespace pybind11::literals;
  m.def("sweep_training_flops", &sweep_training_flops, "params"_a, "tokens"_a,
        "Training FLOPs 6 N D (Kaplan et al. 2020, §2.1) over broadcast arrays of parameter and token counts\n"
        "(whole numbers); float64 FLOP, each element the exact count rounded to the nearest double.");
  m.def("sweep_training_time", &sweep_training_time, "params"_a, "tokens"_a, "gpus"_a, "peak_flops_per_s"_a,
        "mfu"_a = 0.4,
        "Training time in seconds, 6 N D / (gpus x peak x MFU), over broadcast arrays (the simple model of\n"
        "`capplan compare --mfu`; the performance model is estimate_training).");
  m.def("sweep_run_energy", &sweep_run_energy, "power_w"_a, "time_s"_a, "utilization"_a = 1.0, "idle_power_w"_a = 0.0,
        "pue"_a = 1.0,
        "Facility energy in kWh, (P_active x u + P_idle x (1 - u)) x t x PUE (run_energy), over broadcast arrays.");
  m.def("sweep_training", &sweep_training, "params"_a, "tokens"_a, "gpus"_a, "peak_flops_per_s"_a, "mfu"_a = 0.4,
        "gpu_power_w"_a = 0.0, "pue"_a = 1.0, "usd_per_gpu_hour"_a = 0.0, "usd_per_kwh"_a = 0.0,
        "A training run over broadcast arrays: dict of float64 arrays flops, time_s, gpu_hours, energy_kwh\n"
        "(facility), rent_usd (GPU-hours x rate) and electricity_usd (kWh x price). Dollars are float64,\n"
        "approximate; the scalar API keeps money exact.");
  m.def("sweep_rent_vs_own", &sweep_rent_vs_own, "purchase_usd"_a, "active_power_w"_a, "usd_per_kwh"_a,
        "rent_usd_per_hour"_a, "utilization"_a = 1.0, "horizon_months"_a = 36, "idle_power_w"_a = 0.0, "pue"_a = 1.0,
        "maintenance_usd_per_month"_a = 0.0, "space_usd_per_month"_a = 0.0,
        "Owning versus renting on demand over broadcast arrays (compare_costs without discounting or resale):\n"
        "dict of float64 arrays owned_monthly_usd, rented_monthly_usd, owned_total_usd and rented_total_usd\n"
        "(at the horizon), break_even_month (first whole month, inf if none within the horizon) and\n"
        "break_even_time_months. Dollars are float64, approximate; compare_costs keeps money exact.");
}

}  // namespace capplan::python
