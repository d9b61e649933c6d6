// Faults after a successful collective create: a wrong array on one process
// makes every process that exchanges messages with it throw, naming the
// faulty rank, with the same message everywhere; nobody hangs (ctest's
// timeout turns a hang into a failure). Each entry point, each kind of
// fault, the faulty rank in turn. Also: updates begun in different orders on
// different communicators, and a caller's own messages in flight.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>

#include "dapetra/mpi/mpi.hpp"
#include "../common/outcome.hpp"
#include "mpi_test_util.hpp"

using namespace dapetra;
using namespace dapetra::mpi;
using dapetra::testing::owning_array;
using dapetra::testing::world;

namespace {

// How a caller can get an array wrong after the layout was built, and the key
// the error must name. `use_float` asks for the wrong element type instead.
struct FaultKind {
  const char* name;
  const char* key;
  std::function<void(DistArray&)> spoil;
  bool use_float = false;
};

std::vector<FaultKind> fault_kinds() {
  return {
      {"shape", "shape", [](DistArray& a) { a.buffer.shape[0] -= 1; }},
      {"strides", "strides", [](DistArray& a) { a.buffer.strides[0] *= 2; }},
      {"records", "dim_data", [](DistArray& a) { a.dim_data[0].size += 1; }},
      {"version", "__version__", [](DistArray& a) { a.version = "1.0.0"; }},
      {"element type", "format", [](DistArray&) {}, true},
  };
}

// A periodic 1-D block: every rank exchanges with both neighbours on the ring.
// The fault tests run on two rings, one per wire form (exchange.hpp in the
// mpi layer): a halo of 2 doubles travels behind a status header; a halo of
// 6 (48 bytes) travels bare, sent from and received into the arrays
// themselves, a fault note taking its place.
struct Ring {
  global_index_t size, width;
};
Ring ring{40, 2};

Dim ring_dim(int P, int r) { return Dim::even_block(ring.size, P, r, ring.width, true); }

class FaultsOnEachWire : public ::testing::TestWithParam<Ring> {
 protected:
  void SetUp() override { ring = GetParam(); }
  void TearDown() override { ring = Ring{40, 2}; }
};

bool neighbours(int a, int b, int P) { return P > 1 && ((a + 1) % P == b || (b + 1) % P == a); }

using dapetra::testing::outcome;  // the error a call raises, if any

// Every rank gathers every rank's message (empty: no error).
std::vector<std::string> every_message(const std::string& mine) {
  const auto comm = world();
  std::vector<int> lengths(static_cast<std::size_t>(comm->size()));
  int n = static_cast<int>(mine.size());
  MPI_Allgather(&n, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm);
  std::vector<int> displs(lengths.size(), 0);
  for (std::size_t i = 1; i < lengths.size(); ++i) displs[i] = displs[i - 1] + lengths[i - 1];
  std::string all(static_cast<std::size_t>(displs.back() + lengths.back()), '\0');
  MPI_Allgatherv(mine.data(), n, MPI_CHAR, all.data(), lengths.data(), displs.data(), MPI_CHAR, comm);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < lengths.size(); ++i) out.push_back(all.substr(static_cast<std::size_t>(displs[i]), static_cast<std::size_t>(lengths[i])));
  return out;
}

// The checks every entry point gets: neighbours of the faulty rank throw,
// the error names that rank and the key, and all errors read the same.
void expect_fault_reported(const std::optional<ValidationError>& error, int faulty, const FaultKind& kind,
                           const std::string& entry, bool everyone_talks) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  SCOPED_TRACE(entry + ", " + kind.name + " on rank " + std::to_string(faulty));
  if (r == faulty || everyone_talks || neighbours(r, faulty, P)) {
    ASSERT_TRUE(error.has_value());
  }
  if (error) {
    ASSERT_EQ(error->problems().size(), 1u);
    EXPECT_EQ(error->problems()[0].rank, faulty);
    EXPECT_EQ(error->problems()[0].key, kind.key);
  }
  const auto messages = every_message(error ? error->what() : "");
  for (int q = 0; q < P; ++q) {
    if (!messages[q].empty()) {
      EXPECT_EQ(messages[q], messages[static_cast<std::size_t>(faulty)]) << "rank " << q;
    }
  }
}

using Entry = std::function<void(const DistArray& good, const DistArray& maybe_bad, bool use_float)>;

// call(float{}) when the fault asks for the wrong element type, else call(double{}).
template <class Call>
void with_element_type(bool as_float, Call&& call) {
  if (as_float)
    call(float{});
  else
    call(double{});
}

// `everyone_talks`: every process exchanges with every other in this call,
// so every one must throw (otherwise only the ring neighbours must).
void run_every_fault(const std::string& entry, const Entry& call, bool everyone_talks = false) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  for (const FaultKind& kind : fault_kinds())
    for (int faulty = 0; faulty < P; ++faulty) {
      DistArray good = owning_array<double>({ring_dim(P, r)}, 1.0);
      DistArray bad = good;
      const bool spoiled = r == faulty;
      if (spoiled) kind.spoil(bad);
      expect_fault_reported(outcome([&] { call(good, spoiled ? bad : good, spoiled && kind.use_float); }), faulty,
                            kind, entry, everyone_talks);
    }
}

std::shared_ptr<const DistributedLayout> ring_layout() {
  const auto comm = world();
  return DistributedLayout::create(owning_array<double>({ring_dim(comm->size(), comm->rank())}), comm);
}

}  // namespace

TEST_P(FaultsOnEachWire, HaloUpdate) {
  const auto plan = HaloPlan::create(ring_layout());
  run_every_fault("update", [&](const DistArray&, const DistArray& a, bool as_float) {
    as_float ? plan->update<float>(a) : plan->update<double>(a);
  });
}

TEST_P(FaultsOnEachWire, HaloSplitPhase) {
  const auto plan = HaloPlan::create(ring_layout());
  run_every_fault("begin_update/end_update", [&](const DistArray&, const DistArray& a, bool as_float) {
    PlanExchange x;
    with_element_type(as_float, [&](auto s) {
      plan->begin_update<decltype(s)>(a, x);
      plan->end_update<decltype(s)>(a, x);
    });
  });
}

TEST_P(FaultsOnEachWire, AssembleSplitPhase) {
  const auto plan = HaloPlan::create(ring_layout());
  run_every_fault("begin_assemble/end_assemble", [&](const DistArray&, const DistArray& a, bool as_float) {
    PlanExchange x;
    with_element_type(as_float, [&](auto s) {
      plan->begin_assemble<decltype(s)>(a, x);
      plan->end_assemble<decltype(s)>(a, x, CombineMode::insert);
    });
  });
}

TEST_P(FaultsOnEachWire, Assemble) {
  const auto plan = HaloPlan::create(ring_layout());
  for (const bool then_update : {false, true})
    run_every_fault(then_update ? "assemble then update" : "assemble",
                    [&](const DistArray&, const DistArray& a, bool as_float) {
                      as_float ? plan->assemble<float>(a, CombineMode::add, then_update)
                               : plan->assemble<double>(a, CombineMode::add, then_update);
                    });
}

TEST_P(FaultsOnEachWire, Redistribution) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  // Source: the padded ring; target: cyclic, so every rank sends to every other.
  const auto source = ring_layout();
  const auto target = DistributedLayout::create(std::vector<Dim>{Dim::cyclic(ring.size, P, r)}, comm);
  for (const bool fill : {false, true}) {
    RedistributionOptions options;
    options.fill_target_padding = fill;
    const auto plan = RedistributionPlan::create(source, target, options);
    const std::string entry = fill ? "apply with padding fill" : "apply";
    // 40 (or 120) elements in padded blocks to cyclic: every rank sends to every rank
    // (each block holds at least P consecutive indices at P <= 4), so all throw.
    run_every_fault(entry, [&](const DistArray&, const DistArray& a, bool as_float) {
      DistArray t = owning_array<double>({Dim::cyclic(ring.size, P, r)});
      as_float ? plan->apply<float>(a, t) : plan->apply<double>(a, t);
    }, true);
    run_every_fault(entry + " reverse", [&](const DistArray&, const DistArray& a, bool as_float) {
      DistArray t = owning_array<double>({Dim::cyclic(ring.size, P, r)});
      as_float ? plan->apply_reverse<float>(t, a) : plan->apply_reverse<double>(t, a);
    }, true);
    // The split phases, the fault known at the begin on one process and
    // reported by every end.
    run_every_fault(entry + " split", [&](const DistArray&, const DistArray& a, bool as_float) {
      DistArray t = owning_array<double>({Dim::cyclic(ring.size, P, r)});
      PlanExchange x;
      with_element_type(as_float, [&](auto s) {
        plan->begin_apply<decltype(s)>(a, t, x);
        plan->end_apply<decltype(s)>(a, t, x);
      });
    }, true);
    run_every_fault(entry + " reverse split", [&](const DistArray&, const DistArray& a, bool as_float) {
      DistArray t = owning_array<double>({Dim::cyclic(ring.size, P, r)});
      PlanExchange x;
      with_element_type(as_float, [&](auto s) {
        plan->begin_apply_reverse<decltype(s)>(t, a, x);
        plan->end_apply_reverse<decltype(s)>(t, a, x);
      });
    }, true);
  }
}

// The same with a 'u' target that kept its indices on their processes (its
// owners reach the source processes by an all-to-all when the plan is built):
// index g is held by rank g % P, so every rank sends to every other.
TEST_P(FaultsOnEachWire, RedistributionToScatteredUnstructured) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  std::vector<global_index_t> mine;
  for (global_index_t g = r; g < ring.size; g += P) mine.push_back(g);
  const Dim scattered = Dim::unstructured(ring.size, P, r, mine, true);
  const auto plan = RedistributionPlan::create(ring_layout(), DistributedLayout::create(std::vector<Dim>{scattered}, comm));
  run_every_fault("apply to scattered 'u'", [&](const DistArray&, const DistArray& a, bool as_float) {
    DistArray t = owning_array<double>({scattered});
    as_float ? plan->apply<float>(a, t) : plan->apply<double>(a, t);
  }, true);
  run_every_fault("apply_reverse from scattered 'u'", [&](const DistArray&, const DistArray& a, bool as_float) {
    DistArray t = owning_array<double>({scattered});
    as_float ? plan->apply_reverse<float>(t, a) : plan->apply_reverse<double>(t, a);
  }, true);
}

INSTANTIATE_TEST_SUITE_P(WireForms, FaultsOnEachWire, ::testing::Values(Ring{40, 2}, Ring{120, 6}),
                         [](const ::testing::TestParamInfo<Ring>& wire) {
                           return wire.param.width * 8 > 16 ? std::string("Bare") : std::string("WithHeader");
                         });

// A 1-D 'u' layout chooses its own index set (`size` distinct integers), so
// it may lack an index the other layout has: every process refuses the plan
// alike, whichever side the 'u' layout is.
TEST(Faults, RedistributionPlanOverAMissingIndexIsRefusedEverywhere) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  const global_index_t n = 40;
  std::vector<global_index_t> mine;
  for (global_index_t g = r; g < n; g += P) mine.push_back(g == 17 ? n + 5 : g);  // 45 instead of 17
  const DistArray u = owning_array<double>({Dim::unstructured(n, P, r, mine, true)});
  const DistArray b = owning_array<double>({Dim::even_block(n, P, r)});
  const auto ul = DistributedLayout::create(u, comm), bl = DistributedLayout::create(b, comm);
  for (bool u_is_source : {false, true}) {
    try {
      if (u_is_source) RedistributionPlan::create(ul, bl);
      else RedistributionPlan::create(bl, ul);
      ADD_FAILURE() << "a plan over a missing index was built";
    } catch (const ValidationError& e) {
      EXPECT_NE(std::string(e.what()).find("missing"), std::string::npos) << e.what();
      // Each process that found a missing index is named, and only those:
      // the holder of 45 (17 % P) and the owner of 17 in the block layout.
      int block_owner = 0;
      while (17 >= Dim::even_block(n, P, block_owner).stop) ++block_owner;
      const std::set<int> expected{static_cast<int>(17 % P), block_owner};
      std::set<int> named;
      for (const Problem& p : e.problems()) {
        named.insert(p.rank);
        EXPECT_EQ(p.key, "indices") << e.what();
      }
      EXPECT_EQ(named, expected) << (u_is_source ? "u -> block: " : "block -> u: ") << e.what();
    }
  }
}

// Layouts and plans on two duplicates of the world, created in the same
// order everywhere (creation is collective: it agrees on its arguments by a
// reduction, and MPI orders collectives on communicators that share
// processes alike everywhere); rank 0 begins its updates in one order, the
// others in the other. Updates must match up, not hang.
TEST(Communicators, UpdatesBegunInDifferentOrdersOnDifferentCommunicators) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  MPI_Comm first, second;
  MPI_Comm_dup(comm, &first);
  MPI_Comm_dup(comm, &second);
  {
    DistArray x = owning_array<double>({ring_dim(P, r)}), y = owning_array<double>({Dim::even_block(30, P, r, 1, true)});
    const auto lx = DistributedLayout::create(x, first);
    const auto ly = DistributedLayout::create(y, second);
    const auto px = HaloPlan::create(lx);
    const auto py = HaloPlan::create(ly);
    const auto fill = [&](DistArray& a, double scale) {
      const Dim& d = a.dim_data[0];
      double* v = data_as<double>(a);
      for (global_index_t i = 0; i < local_extent(d); ++i)
        v[i] = padding_kind(d, i) == PaddingKind::none ? scale * static_cast<double>(global_index(d, i)) : -1.0;
    };
    fill(x, 1.0);
    fill(y, 1000.0);
    // Both in flight at once, begun in one order on rank 0 and the other elsewhere.
    PlanExchange ex, ey;
    if (r == 0) {
      px->begin_update<double>(x, ex);
      py->begin_update<double>(y, ey);
    } else {
      py->begin_update<double>(y, ey);
      px->begin_update<double>(x, ex);
    }
    py->end_update<double>(y, ey);
    px->end_update<double>(x, ex);
    for (const auto& [a, scale] : {std::pair<DistArray*, double>{&x, 1.0}, {&y, 1000.0}}) {
      const Dim& d = a->dim_data[0];
      const global_index_t interior = d.size - 2 * d.padding[0];
      for (global_index_t i = 0; i < local_extent(d); ++i) {
        global_index_t g = global_index(d, i);
        if (g < d.padding[0]) g += interior;
        if (g >= d.size - d.padding[1]) g -= interior;
        EXPECT_EQ(data_as<double>(*a)[i], scale * static_cast<double>(g)) << "position " << i;
      }
    }
  }
  MPI_Comm_free(&first);
  MPI_Comm_free(&second);
}

// A caller's own receive from any source with any tag, posted before an
// update on the same communicator, gets the caller's message, not Dapetra's.
TEST(Communicators, CallersMessagesAreNeverMatchedByPlans) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  if (P < 2) GTEST_SKIP() << "needs a neighbour";
  DistArray x = owning_array<double>({ring_dim(P, r)}, 3.0);
  const auto plan = HaloPlan::create(DistributedLayout::create(x, comm));
  double got = 0.0, mine = 42.0 + r;
  MPI_Request request;
  MPI_Irecv(&got, 1, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &request);
  plan->update<double>(x);
  MPI_Send(&mine, 1, MPI_DOUBLE, (r + 1) % P, 7, comm);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  EXPECT_EQ(got, 42.0 + (r + P - 1) % P);
}

// end_update on another array than begin_update got: the messages have all
// arrived by then, so only that process can know; it throws, the others finish.
TEST_P(FaultsOnEachWire, EndUpdateOnAnotherArrayThrowsThere) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  const auto plan = HaloPlan::create(ring_layout());
  for (int bad = 0; bad < P; ++bad) {
    DistArray x = owning_array<double>({ring_dim(P, r)}, 1.0), y = owning_array<double>({ring_dim(P, r)}, 2.0);
    PlanExchange exchange;
    plan->begin_update<double>(x, exchange);
    const auto error = outcome([&] { plan->end_update<double>(r == bad ? y : x, exchange); });
    EXPECT_EQ(error.has_value(), r == bad);
    if (error) {
      EXPECT_EQ(error->problems()[0].key, "buffer");
      EXPECT_EQ(error->problems()[0].rank, bad);
    }
    EXPECT_FALSE(exchange.in_flight());
  }
}

// Layouts on one communicator share Dapetra's duplicate of it (made once);
// it is never the caller's own, and it outlives the caller's communicator
// while a layout holds it.
TEST(Communicators, LayoutsShareOneDuplicateThatOutlivesTheCallers) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  MPI_Comm mine;
  MPI_Comm_dup(comm, &mine);
  DistArray x = owning_array<double>({ring_dim(P, r)});
  const auto first = DistributedLayout::create(x, mine), second = DistributedLayout::create(x, mine);
  EXPECT_EQ(first->comm(), second->comm());
  int relation = MPI_IDENT;
  MPI_Comm_compare(first->comm(), mine, &relation);
  EXPECT_EQ(relation, MPI_CONGRUENT);  // same group and order, another context
  const auto other = DistributedLayout::create(x, comm);
  EXPECT_NE(other->comm(), first->comm());
  const auto plan = HaloPlan::create(first);
  MPI_Comm_free(&mine);  // the layouts keep Dapetra's duplicate alive
  const Dim& d = x.dim_data[0];
  double* v = data_as<double>(x);
  for (global_index_t i = 0; i < local_extent(d); ++i) v[i] = static_cast<double>(global_index(d, i));
  plan->update<double>(x);
  const global_index_t interior = d.size - 2 * d.padding[0];
  for (global_index_t i = 0; i < local_extent(d); ++i) {
    global_index_t g = global_index(d, i);
    if (g < d.padding[0]) g += interior;
    if (g >= d.size - d.padding[1]) g -= interior;
    EXPECT_EQ(v[i], static_cast<double>(g)) << "position " << i;
  }
}

// mpi::agree: a problem on one process (each in turn) is the same
// ValidationError on every process, naming that rank; none means nobody
// throws; several faulty processes are listed in rank order, each distinct
// problem once; agree_on turns any exception of a step into such a problem.
TEST(Faults, AgreeGivesEveryProcessTheSameError) {
  const auto w = world();
  const int P = w.size(), r = w.rank();
  EXPECT_FALSE(dapetra::testing::outcome([&] { agree({}, w); }).has_value());
  for (int bad = 0; bad < P; ++bad) {
    std::vector<Problem> mine;
    if (r == bad) mine.push_back({r, 1, "stop", "20", "stop <= size", "stop 20 exceeds size 18"});
    const auto e = dapetra::testing::outcome([&] { agree(mine, w); });
    ASSERT_TRUE(e.has_value()) << "faulty rank " << bad;
    ASSERT_EQ(e->problems().size(), 1u);
    EXPECT_EQ(e->problems()[0], (Problem::of(bad, "stop", "20", "stop <= size", "stop 20 exceeds size 18", 1)));
  }
  // Every process faulty, with its own problem and one they all share.
  const Problem shared{-1, -1, "column_axis", "", "every process names the same column axis", "they differ"};
  const auto e = dapetra::testing::outcome([&] {
    agree({Problem::of(r, "indices", std::to_string(r), "an index of [0, size)", "rank's own"), shared}, w);
  });
  ASSERT_TRUE(e.has_value());
  ASSERT_EQ(e->problems().size(), static_cast<std::size_t>(P) + 1);
  for (int q = 0; q < P; ++q) EXPECT_EQ(e->problems()[static_cast<std::size_t>(q == 0 ? 0 : q + 1)].rank, q);
  EXPECT_EQ(e->problems()[1], shared);  // after rank 0's own, listed once
}

TEST(Faults, AgreeOnAStepThatThrowsAnythingOnOneProcess) {
  const auto w = world();
  const int P = w.size(), r = w.rank();
  for (int bad = 0; bad < P; ++bad) {
    bool ran = false;
    const auto e = dapetra::testing::outcome([&] {
      agree_on(w, [&] {
        ran = true;
        if (r == bad) throw std::runtime_error("cannot open mesh.msh");
      });
    });
    EXPECT_TRUE(ran);
    ASSERT_TRUE(e.has_value()) << "faulty rank " << bad;
    ASSERT_EQ(e->problems().size(), 1u);
    EXPECT_EQ(e->problems()[0].rank, bad);
    EXPECT_EQ(e->problems()[0].message, "cannot open mesh.msh");
  }
  EXPECT_FALSE(dapetra::testing::outcome([&] { agree_on(w, [] {}); }).has_value());
  EXPECT_TRUE(all_true(true, w));
  EXPECT_FALSE(all_true(r != P - 1, w));
}

// A collective creation given another (valid) layout on one process, that
// process in turn: every process throws the same error before any exchange,
// naming the process that differs (the case: rank 0 passing another
// target to RedistributionPlan::create, which returned wrong values without
// an error at 2 processes and aborted in MPI_Waitall at 3). Afterwards the
// same calls with the same layouts everywhere succeed.
TEST(Faults, CollectiveCreationsGivenAnotherLayoutOnOneProcessFailEverywhere) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  if (P < 2) GTEST_SKIP() << "needs two processes to differ";
  const global_index_t n = 12 * P;
  const auto block = DistributedLayout::create({Dim::even_block(n, P, r, 1)}, comm);
  const auto other = DistributedLayout::create({Dim::even_block(n, P, r, 2)}, comm);
  const auto cyclic = DistributedLayout::create({Dim::cyclic(n, P, r, 2)}, comm);
  const std::vector<std::pair<std::string, std::function<void(bool)>>> calls{
      {"HaloPlan::create", [&](bool odd) { HaloPlan::create(odd ? other : block); }},
      {"IndexMap::create", [&](bool odd) { IndexMap::create(odd ? other : block); }},
      {"RedistributionPlan::create", [&](bool odd) { RedistributionPlan::create(block, odd ? other : cyclic); }},
      {"RedistributionPlan::create", [&](bool odd) { RedistributionPlan::create(odd ? other : block, cyclic); }},
  };
  for (const auto& [name, call] : calls)
    for (int odd = 0; odd < P; ++odd) {
      SCOPED_TRACE(name + " with another layout on rank " + std::to_string(odd));
      const auto e = outcome([&] { call(r == odd); });
      ASSERT_TRUE(e.has_value());
      bool named = false;
      for (const Problem& p : e->problems()) named = named || (p.rank == odd && p.key == "layout");
      EXPECT_TRUE(named) << e->what();
      const auto messages = every_message(e->what());
      for (int q = 0; q < P; ++q) EXPECT_EQ(messages[q], messages[0]) << "rank " << q;
      EXPECT_FALSE(outcome([&] { call(false); }).has_value());
    }
}
