# The PETSc adapter's tests, against PETSc's own operations.
find_package(nlohmann_json 3.9 REQUIRED)
set(sources petsc/petsc_main.cpp petsc/test_vec.cpp)
set(libs Dapetra::petsc GTest::gtest nlohmann_json::nlohmann_json)
if(TARGET Dapetra::tpetra)  # PETSc -> DAP -> Tpetra -> DAP -> PETSc
  list(APPEND sources petsc/test_round_trip.cpp petsc/test_mat.cpp)
  list(APPEND libs Dapetra::tpetra)
endif()
dapetra_test_program(test_petsc SOURCES ${sources} LIBS ${libs}
                     DEFINES DAPETRA_SPEC_DATA="${DAPETRA_TESTS_DIR}/data/spec_chapter2.json")
dapetra_mpi_tests(test_petsc petsc "PetscVec.WhatPetscCannotHold*:Faults.*")
