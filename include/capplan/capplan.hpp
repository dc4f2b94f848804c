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
