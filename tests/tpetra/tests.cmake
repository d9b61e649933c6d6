# The Tpetra adapter's tests under MPI (and the spec's 2x2x2 example at 8 processes).
find_package(nlohmann_json 3.9 REQUIRED)
dapetra_test_program(test_tpetra SOURCES tpetra/mpi_main.cpp tpetra/test_maps_views.cpp tpetra/test_round_trips.cpp tpetra/test_transfers.cpp tpetra/test_fe_matrix.cpp tpetra/test_crs_matrix.cpp
                     LIBS Dapetra::tpetra GTest::gtest nlohmann_json::nlohmann_json
                     DEFINES DAPETRA_SPEC_DATA="${DAPETRA_TESTS_DIR}/data/spec_chapter2.json"
                     INCLUDES ${DAPETRA_MPI_INTERNAL_DIR})  # test_maps_views: which records were gathered
dapetra_mpi_tests(test_tpetra tpetra "Faults.*")
dapetra_test(tpetra_spec_np8 NP 8 COMMAND test_tpetra --gtest_filter=SpecExamples.* LABELS mpi TIMEOUT 300)
# Saddle-point systems with a block preconditioner (dapetra/tpetra/block_system.hpp):
# Belos, Ifpack2 and MueLu, as the finite-element example links them.
if(TARGET dapetra::fem)
  dapetra_test_program(test_block_system SOURCES tpetra/mpi_main.cpp tpetra/test_block_system.cpp
                       LIBS dapetra::fem GTest::gtest
                       DEFINES DAPETRA_SPEC_DATA="${DAPETRA_TESTS_DIR}/data/spec_chapter2.json")
  dapetra_mpi_tests(test_block_system block_system "Faults.*" SANITIZED "*IterationsLevelOff*")
endif()
