/// \file
/// dapetra/dapetra.hpp: the whole protocol core in one include.
#pragma once

#include "dapetra/axis.hpp"
#include "dapetra/csr.hpp"
#include "dapetra/dim.hpp"
#include "dapetra/dim_math.hpp"
#include "dapetra/distarray.hpp"
#include "dapetra/error.hpp"
#include "dapetra/inspect.hpp"
#include "dapetra/json.hpp"
#include "dapetra/global_layout.hpp"
#include "dapetra/process_grid.hpp"
#include "dapetra/record_reader.hpp"
#include "dapetra/validate.hpp"
#include "dapetra/version.hpp"
