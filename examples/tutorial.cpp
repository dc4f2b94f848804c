// The tutorial (docs/tutorial.md), as a program that CTest builds and runs, so it stays true.
//
// A team wants to fine-tune and serve Llama 2 7B. Will it fit on an RTX 4090, how much work is
// training on a billion tokens, and is a desktop cheaper than renting?
#include <capplan/capplan.hpp>   // everything but file I/O; or include only the headers you use

#include <iostream>

int main() {
  using namespace capplan;
  using namespace capplan::literals;

  // 1. Hardware from the built-in catalog: names are forgiving, figures are sourced and dense.
  const GpuSpec& gpu = Catalog::builtin().find_gpu("rtx4090");
  std::cout << gpu.name << ": " << format(gpu.memory) << ", " << format(gpu.memory_bandwidth) << ", "
            << format(*gpu.dense.at(Precision::bf16)) << " bf16 dense\n";

  // 2. The model, from a preset with its citation; parameters are derived from the shape.
  const TransformerShape& llama = find_model("llama2-7b").transformer();
  const Count params = parameter_count(llama);
  std::cout << "llama2-7b: " << params << " parameters\n";

  // 3. Work: 6 N D FLOPs for a billion tokens, exact, then as a quantity.
  const Count flops = training_flops(params, parse_count("1e9"));
  std::cout << "training on 1e9 tokens: " << format(to_flop_count(flops)) << "\n";

  // 4. Will it fit? Serving in bf16 with a 4,096-token context, and full fine-tuning with Adam.
  InferenceConfig serve;
  serve.context = 4096;
  const MemoryBudget serving = inference_budget(llama, serve);
  const FitResult s = check_fit(serving, gpu.memory);
  std::cout << "serving, bf16: " << format(serving.total()) << " of " << format(gpu.memory)
            << (s.fits ? " (fits)\n" : " (does not fit)\n");

  TrainingConfig train;
  train.seq_len = 4096;
  const FitResult t = check_fit(training_budget(llama, train), gpu.memory);
  std::cout << "full fine-tuning with Adam: needs " << format(t.required) << (t.fits ? " (fits)\n" : " (does not fit)\n");

  // 5. Owning versus renting, exactly: a $2,200 desktop at 450 W against $2.14/h (Dettmers).
  OwnedOption desk;
  desk.name = "desktop";
  desk.purchase = 2200_USD;
  desk.active_power = 450_W;
  desk.electricity = 0.12_USD / 1_kWh;
  CompareOptions opt;
  opt.utilization = 0.15;
  opt.horizon_months = 24;
  const CostComparison c = compare_costs(desk, RentedOption::on_demand("cloud", 2.14_USD / 1_h), opt);
  std::cout << c.explain() << "\n";
  return 0;
}
