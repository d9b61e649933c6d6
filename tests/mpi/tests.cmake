# The communication layer's tests (no Trilinos) under MPI.
find_package(nlohmann_json 3.9 REQUIRED)
set(spec_data DAPETRA_SPEC_DATA="${DAPETRA_TESTS_DIR}/data/spec_chapter2.json")
set(sources mpi/mpi_main.cpp mpi/test_halo.cpp mpi/test_halo_properties.cpp mpi/test_redistribute.cpp
            mpi/test_faults.cpp mpi/test_layout.cpp mpi/test_index_map.cpp mpi/test_owned_ranges.cpp
            mpi/test_held_owners.cpp mpi/test_sparse_exchange.cpp)
set(libs Dapetra::mpi GTest::gtest nlohmann_json::nlohmann_json)
if(TARGET Dapetra::eigen)
  list(APPEND sources mpi/test_eigen_plans.cpp)
  list(APPEND libs Dapetra::eigen)
endif()
# test_layout and test_claims look at the gathered records too (white box:
# the mpi layer's adapter-facing header).
dapetra_test_program(test_mpi SOURCES ${sources} LIBS ${libs} DEFINES ${spec_data} INCLUDES ${DAPETRA_MPI_INTERNAL_DIR})
dapetra_mpi_tests(test_mpi mpi "Faults.*:*FaultsOnEachWire.*:Communicators.*")
dapetra_test(mpi_spec_np8 NP 8 COMMAND test_mpi --gtest_filter=Redistribute.SpecExample2_12* LABELS mpi TIMEOUT 300)
# README claims checked inside the MPI calls (profiling-interface counters,
# so its own program: the counters see every MPI call made in it).
dapetra_test_program(test_mpi_claims SOURCES mpi/mpi_main.cpp mpi/test_claims.cpp
                     LIBS Dapetra::mpi GTest::gtest nlohmann_json::nlohmann_json DEFINES ${spec_data}
                     INCLUDES ${DAPETRA_MPI_INTERNAL_DIR})
foreach(np 1 2 3)
  dapetra_test(mpi_claims_np${np} NP ${np} COMMAND test_mpi_claims LABELS mpi TIMEOUT 300)
endforeach()
# Soaks with resident memory flat and values checked as they go (its own
# program, so no other test's memory shows): a million halo calls at 2
# processes; creation and redistribution at 2-4. A tenth of the rounds under
# the sanitizers, which slow each call tenfold and keep their own bookkeeping.
dapetra_test_program(test_mpi_soak SOURCES mpi/mpi_main.cpp mpi/test_soak.cpp
                     LIBS Dapetra::mpi GTest::gtest nlohmann_json::nlohmann_json DEFINES ${spec_data})
set(soak_env "")
if(DAPETRA_SANITIZE)  # ASan's quarantine holds freed memory: the allocating soaks check values only
  set(soak_env DAPETRA_SOAK_CALLS=100000 DAPETRA_SOAK_MEMORY=unchecked)
endif()
dapetra_test(mpi_soak_np2 NP 2 COMMAND test_mpi_soak LABELS mpi TIMEOUT 300 ENV ${soak_env})
foreach(np 3 4)
  dapetra_test(mpi_soak_np${np} NP ${np} COMMAND test_mpi_soak --gtest_filter=-Soak.AMillionHaloCalls* LABELS mpi TIMEOUT 300
               ENV ${soak_env})
endforeach()
# Plans used from several threads at once (MPI_THREAD_MULTIPLE; its own program, with its own MPI_Init_thread).
dapetra_test_program(test_mpi_threads SOURCES mpi/test_threads.cpp LIBS Dapetra::mpi GTest::gtest nlohmann_json::nlohmann_json
                     DEFINES ${spec_data})
foreach(np 2 3)
  dapetra_test(mpi_threads_np${np} NP ${np} COMMAND test_mpi_threads LABELS mpi TIMEOUT 300)
endforeach()
# The same message pattern in plain MPI, with no Dapetra in it
# (threads_pattern.cpp): beside the test above, it tells a fault of
# Dapetra's from one of the MPI library's (docs/packaging.md).
find_package(Threads REQUIRED)
set(mpi_only Threads::Threads)
if(TARGET MPI::MPI_CXX)
  list(APPEND mpi_only MPI::MPI_CXX)
endif()
dapetra_test_program(threads_pattern SOURCES mpi/threads_pattern.cpp LIBS ${mpi_only})
dapetra_test(threads_pattern_np3 NP 3 COMMAND threads_pattern LABELS mpi TIMEOUT 120)
