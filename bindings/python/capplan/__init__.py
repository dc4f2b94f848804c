"""capplan: capacity planning and cost for deep-learning hardware, with checked units and exact money.

The C++ library does the work; this package re-exports its Python bindings (``capplan._core``)
under the same names: types in PascalCase, functions in snake_case.

>>> from capplan import DataSize, Power, Duration, EnergyPrice
>>> str(DataSize(80, "GB")), round(DataSize(80, "GB").to("GiB"), 3)
('80 GB', 74.506)
>>> energy = Power(450, "W") * 0.15 * Duration(1, "year")
>>> str(EnergyPrice("0.12 USD/kWh") * energy)
'$70.96'
"""

from ._core import (
    __version__,
    # errors
    InputError,
    ParseError,
    CurrencyError,
    LookupError,
    # units
    Prefixes,
    DataSize,
    Duration,
    FlopCount,
    FlopRate,
    Bandwidth,
    Power,
    Energy,
    ArithmeticIntensity,
    CarbonMass,
    CarbonIntensity,
    format_number,
    parse_count,
    # money
    Currency,
    RoundingMode,
    MoneyStyle,
    Money,
    MoneyRate,
    EnergyPrice,
    ExchangeRate,
    convert,
    decimal_from_double,
    parse_money,
    parse_money_rate,
    parse_energy_price,
    parse_currency,
    # sweeps (NumPy grids; capplan.sweeps has the documented wrappers)
    sweep_training_flops,
    sweep_training_time,
    sweep_run_energy,
    sweep_training,
    sweep_rent_vs_own,
)
from . import sweeps

__all__ = [
    "__version__",
    "InputError",
    "ParseError",
    "CurrencyError",
    "LookupError",
    "Prefixes",
    "DataSize",
    "Duration",
    "FlopCount",
    "FlopRate",
    "Bandwidth",
    "Power",
    "Energy",
    "ArithmeticIntensity",
    "CarbonMass",
    "CarbonIntensity",
    "format_number",
    "parse_count",
    "Currency",
    "RoundingMode",
    "MoneyStyle",
    "Money",
    "MoneyRate",
    "EnergyPrice",
    "ExchangeRate",
    "convert",
    "decimal_from_double",
    "parse_money",
    "parse_money_rate",
    "parse_energy_price",
    "parse_currency",
    "sweep_training_flops",
    "sweep_training_time",
    "sweep_run_energy",
    "sweep_training",
    "sweep_rent_vs_own",
    "sweeps",
]
