// capplan: everything except the optional file I/O (capplan/io/...).
#pragma once

#include "capplan/version.hpp"
#include "capplan/error.hpp"

// units
#include "capplan/units/quantity.hpp"
#include "capplan/units/guards.hpp"
#include "capplan/units/literals.hpp"
#include "capplan/units/count.hpp"
#include "capplan/units/format.hpp"
#include "capplan/units/parse.hpp"

// money
#include "capplan/money/decimal.hpp"
#include "capplan/money/currency.hpp"
#include "capplan/money/money.hpp"
#include "capplan/money/format.hpp"

// hardware
#include "capplan/hardware/builtin_catalog.hpp"
#include "capplan/hardware/catalog.hpp"
#include "capplan/hardware/chassis.hpp"
#include "capplan/hardware/cloud.hpp"
#include "capplan/hardware/cpu.hpp"
#include "capplan/date.hpp"
#include "capplan/hardware/gpu.hpp"
#include "capplan/hardware/host_memory.hpp"
#include "capplan/hardware/memory_module.hpp"
#include "capplan/hardware/network_adapter.hpp"
#include "capplan/hardware/precision.hpp"
#include "capplan/hardware/price_point.hpp"
#include "capplan/hardware/psu.hpp"
#include "capplan/hardware/storage.hpp"
#include "capplan/hardware/system.hpp"
#include "capplan/hardware/warnings.hpp"

// workload
#include "capplan/workload/image_model.hpp"
#include "capplan/workload/generic.hpp"
#include "capplan/workload/model_fields.hpp"
#include "capplan/workload/parallel_plan.hpp"
#include "capplan/workload/pipeline_layout.hpp"
#include "capplan/workload/params.hpp"
#include "capplan/workload/presets.hpp"
#include "capplan/workload/transformer.hpp"

// compute
#include "capplan/compute/flops.hpp"

// memory
#include "capplan/memory/activations.hpp"
#include "capplan/memory/budget.hpp"
#include "capplan/memory/formats.hpp"
#include "capplan/memory/kv_cache.hpp"
#include "capplan/memory/solvers.hpp"

// perf
#include "capplan/perf/image_model.hpp"
#include "capplan/perf/communication.hpp"
#include "capplan/perf/data_loading.hpp"
#include "capplan/perf/efficiency.hpp"
#include "capplan/perf/explain.hpp"
#include "capplan/perf/fabric.hpp"
#include "capplan/perf/framework_memory.hpp"
#include "capplan/perf/inference.hpp"
#include "capplan/perf/plan_search.hpp"
#include "capplan/perf/roofline.hpp"
#include "capplan/perf/training.hpp"

// power
#include "capplan/power/carbon.hpp"
#include "capplan/power/circuit.hpp"
#include "capplan/power/component.hpp"
#include "capplan/power/efficiency.hpp"
#include "capplan/power/energy.hpp"
#include "capplan/power/explain.hpp"
#include "capplan/power/heat.hpp"
#include "capplan/power/psu.hpp"
#include "capplan/power/system_power.hpp"

// cost
#include "capplan/cost/compare.hpp"
#include "capplan/cost/depreciation.hpp"
#include "capplan/cost/discount.hpp"
#include "capplan/cost/owned.hpp"
#include "capplan/cost/rented.hpp"
#include "capplan/cost/unit_cost.hpp"

// report
#include "capplan/report/chart.hpp"
#include "capplan/report/cost_chart.hpp"
#include "capplan/report/html_page.hpp"
#include "capplan/report/pareto.hpp"
#include "capplan/report/render.hpp"
#include "capplan/report/table.hpp"

// plan
#include "capplan/plan/build.hpp"
#include "capplan/plan/goodput.hpp"
#include "capplan/plan/it_power.hpp"
#include "capplan/plan/purchase.hpp"
#include "capplan/plan/run_footprint.hpp"
#include "capplan/plan/serving_report.hpp"
#include "capplan/plan/serving_run.hpp"
#include "capplan/plan/system_sizing.hpp"
#include "capplan/plan/training_report.hpp"
#include "capplan/plan/training_run.hpp"
