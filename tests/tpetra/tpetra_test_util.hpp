// Helpers for the Tpetra adapter tests.
#pragma once

#include <gtest/gtest.h>

#include <Tpetra_Core.hpp>
#include <functional>
#include <string>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "dapetra/distarray.hpp"
#include "../common/arrays.hpp"
#include "../common/flat_indices.hpp"
#include "dapetra/error.hpp"
#include "dapetra/json.hpp"

namespace dapetra::testing {

inline Teuchos::RCP<const Teuchos::Comm<int>> world() { return Tpetra::getDefaultComm(); }

// `step` throws the same ValidationError on every process, its first problem
// naming the faulty rank and the key at fault.
inline void expect_every_rank_throws(const std::function<void()>& step, int bad, const std::string& key) {
  try {
    step();
    ADD_FAILURE() << "a fault in '" << key << "' on rank " << bad << " was accepted";
  } catch (const ValidationError& e) {
    ASSERT_FALSE(e.problems().empty());
    EXPECT_EQ(e.problems()[0].rank, bad);
    EXPECT_EQ(e.problems()[0].key, key);
  }
}

}  // namespace dapetra::testing
