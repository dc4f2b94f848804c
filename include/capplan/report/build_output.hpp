// The machine around the GPUs for programs: the object `capplan build --format json` prints for a
// search of complete builds (plan/build.hpp), and the one `capplan size --format json` prints for a
// system sizing (plan/system_sizing.hpp); Python's BuildSearch.output() and SystemSizing.output()
// return the same. Money as exact decimal strings in USD (and in the budget's currency beside it),
// bytes, watts and bytes per second as numbers.
#pragma once

#include "capplan/detail/enum_names.hpp"
#include "capplan/money/format.hpp"
#include "capplan/money/money.hpp"
#include "capplan/plan/build.hpp"
#include "capplan/plan/system_sizing.hpp"
#include "capplan/report/value.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace capplan {

// A build budget as the buyer gave it: the amount in any currency and, when that is not USD, the
// dated rate that converts it (one USD in the budget's currency, exactly as given).
struct BuildBudget {
  Money amount{};
  std::optional<ExchangeRate> usd_to_budget;  // from USD to amount's currency

  // The budget in USD, to the cent (what BuildQuery::budget takes).
  [[nodiscard]] Money usd() const {
    if (amount.currency() == Currency::USD) return amount;
    if (!usd_to_budget || usd_to_budget->from != Currency::USD || usd_to_budget->to != amount.currency()) {
      detail::fail("budget", to_json_string(amount) + " " + std::string(code(amount.currency())),
                   "is not in USD and no rate from USD to " + std::string(code(amount.currency())) + " is given");
    }
    return convert(amount, usd_to_budget->inverse()).rounded_to(2);
  }
  // A USD figure in the budget's currency (exact: the given rate times the amount); nullopt without
  // a rate.
  [[nodiscard]] std::optional<Money> in_budget_currency(const Money& usd) const {
    if (!usd_to_budget) return std::nullopt;
    return convert(usd, *usd_to_budget);
  }
};

// workload; with the query: model, task, finetune (its method; null unless fine-tuning), seq_len
// (training; null for serving), and for serving batch, prompt_tokens, output_tokens, weights and
// expert_weights (null where the experts are stored as the rest, and all five null for training);
// budget, budget_usd, fx (usd_in_budget_currency, as_of; null for USD), builds (gpu, gpus, total_usd,
// total_budget_currency, tokens_per_s, plan, memory_per_gpu_bytes, wall_power_w, psu_rule, items
// [kind, id, name, count, unit_usd, subtotal_usd, why], unchecked, cautions), rejected.
inline Value build_search_output(const BuildSearch& r, std::string_view workload, const BuildBudget& budget, const BuildQuery* query = nullptr) {
  Value j;
  j["workload"] = workload;
  if (query) {
    const BuildQuery& q = *query;
    const bool serve = q.task == SizingTask::serve;
    j["model"] = q.model_id;
    j["task"] = detail::enum_name(q.task);
    j["finetune"] = q.task == SizingTask::finetune ? Value(std::string(name(q.finetune))) : Value();
    j["seq_len"] = serve ? Value() : Value(q.seq_len > 0 ? q.seq_len : q.model.seq_len);
    j["batch"] = serve ? Value(q.load.batch) : Value();
    j["prompt_tokens"] = serve ? Value(q.load.prompt) : Value();
    j["output_tokens"] = serve ? Value(q.load.output) : Value();
    j["weights"] = serve ? Value(std::string(q.load.weights.name)) : Value();
    j["expert_weights"] = serve && q.load.expert_weights ? Value(std::string(q.load.expert_weights->name)) : Value();
  }
  j["budget"] = Value::Exact{to_json_string(budget.amount)};
  j["budget_usd"] = Value::Exact{to_json_string(budget.usd())};
  if (budget.usd_to_budget) {
    Value fx;
    fx["usd_in_budget_currency"] = Value::Exact{budget.usd_to_budget->rate.to_string()};
    fx["as_of"] = budget.usd_to_budget->as_of;
    j["fx"] = std::move(fx);
  } else {
    j["fx"] = Value();
  }
  Value builds = Value::Array{};
  for (const Build& b : r.builds) {
    Value o;
    o["gpu"] = b.gpu_id;
    o["gpus"] = b.gpus;
    o["total_usd"] = Value::Exact{to_json_string(b.total)};
    const std::optional<Money> local = budget.in_budget_currency(b.total);
    o["total_budget_currency"] = local ? Value(Value::Exact{to_json_string(*local)}) : Value();
    o["tokens_per_s"] = b.tokens_per_second;
    o["plan"] = b.plan;
    o["memory_per_gpu_bytes"] = b.memory_per_gpu.value();
    o["wall_power_w"] = b.wall.value();
    o["psu_rule"] = b.psu_rule;
    Value items = Value::Array{};
    for (const BuildItem& it : b.items) {
      Value i;
      i["kind"] = detail::enum_name(it.kind);
      i["id"] = it.id;
      i["name"] = it.name;
      i["count"] = it.count;
      i["unit_usd"] = Value::Exact{to_json_string(it.unit)};
      i["subtotal_usd"] = Value::Exact{to_json_string(it.subtotal)};
      i["why"] = it.why;
      items.push_back(std::move(i));
    }
    o["items"] = std::move(items);
    o["unchecked"] = Value::strings(b.unchecked);
    o["cautions"] = Value::strings(b.cautions);
    builds.push_back(std::move(o));
  }
  j["builds"] = std::move(builds);
  j["rejected"] = Value::strings(r.rejected);
  return j;
}

// gpu, gpus, task, model (null when none), ram_bytes, ram_needed_bytes, cpu_cores, storage_bytes,
// storage_read_bytes_per_s, storage_write_bytes_per_s, pcie_lanes, airflow_cfm, items (item,
// answer, value, parts, rule, rules_of_thumb [rule, source, gives, verdict]), assumptions (the
// notes the command prints).
inline Value system_sizing_output(const SystemSizing& s, const SizingQuery& q, std::string_view model,
                                  const std::vector<std::string>& notes) {
  Value j;
  j["gpu"] = q.gpu ? Value(q.gpu->id) : Value();
  j["gpus"] = q.gpus;
  j["task"] = detail::enum_name(q.task);
  j["model"] = model.empty() ? Value() : Value(model);
  j["ram_bytes"] = s.ram.value();
  j["ram_needed_bytes"] = s.ram_needed.value();
  j["cpu_cores"] = s.cpu_cores;
  j["storage_bytes"] = s.storage.value();
  j["storage_read_bytes_per_s"] = s.storage_read.value();
  j["storage_write_bytes_per_s"] = s.storage_write.value();
  j["pcie_lanes"] = s.pcie_lanes;
  j["airflow_cfm"] = s.airflow_cfm;
  Value items = Value::Array{};
  for (const SizingLine& l : s.lines) {
    Value i;
    i["item"] = l.item;
    i["answer"] = l.answer;
    i["value"] = l.value;
    i["parts"] = Value::strings(l.parts);
    i["rule"] = l.rule;
    Value rules = Value::Array{};
    for (const RuleOfThumb& k : l.rules_of_thumb) {
      Value rk;
      rk["rule"] = k.rule;
      rk["source"] = k.source;
      rk["gives"] = k.gives;
      rk["verdict"] = k.verdict;
      rules.push_back(std::move(rk));
    }
    i["rules_of_thumb"] = std::move(rules);
    items.push_back(std::move(i));
  }
  j["items"] = std::move(items);
  j["assumptions"] = Value::strings(notes);
  return j;
}

// The notes `capplan size` prints under its table, in order: each answer's sum and rule, each rule
// of thumb with its verdict, then the sizing's assumptions.
inline std::vector<std::string> system_sizing_notes(const SystemSizing& s) {
  std::vector<std::string> notes;
  for (const SizingLine& l : s.lines) {
    std::string sum;
    for (const auto& p : l.parts) sum += (sum.empty() ? "" : " + ") + p;
    notes.push_back(l.item + " = " + sum + ". Rule: " + l.rule + ".");
    for (const RuleOfThumb& k : l.rules_of_thumb) {
      notes.push_back("Rule of thumb, " + l.item + ": \"" + k.rule + "\" (" + k.source + ") gives " + k.gives + ": " + k.verdict + ".");
    }
  }
  for (const auto& n : s.assumptions) notes.push_back(n);
  return notes;
}

}  // namespace capplan
