// Helpers for the Tpetra adapter tests.
#pragma once

#include <Tpetra_Core.hpp>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "dapetra/distarray.hpp"
#include "../common/arrays.hpp"
#include "../common/flat_indices.hpp"
#include "dapetra/json.hpp"

namespace dapetra::testing {

inline Teuchos::RCP<const Teuchos::Comm<int>> world() { return Tpetra::getDefaultComm(); }

}  // namespace dapetra::testing
