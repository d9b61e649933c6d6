# The deal.II adapter's tests, against deal.II's own operations.
set(sources dealii/dealii_main.cpp dealii/test_vector.cpp)
set(libs Dapetra::dealii GTest::gtest)
if(TARGET Dapetra::tpetra)  # deal.II's vectors as Tpetra's, its assembly into Tpetra
  list(APPEND sources dealii/test_vector_tpetra.cpp dealii/test_tpetra_matrix.cpp dealii/test_block_matrix.cpp)
  list(APPEND libs Dapetra::tpetra)
endif()
dapetra_test_program(test_dealii SOURCES ${sources} LIBS ${libs})
dapetra_mpi_tests(test_dealii dealii "Faults.*")
# deal.II's step-40 through Dapetra against deal.II's own Trilinos and PETSc
# solves, three adaptive cycles: the program fails when a solution differs.
if(TARGET dapetra-step40)
  foreach(np 1 3)
    dapetra_test(dealii_step40_np${np} NP ${np} COMMAND dapetra-step40 --compare --initial 4 --cycles 3 LABELS mpi TIMEOUT 300)
  endforeach()
  # The plain Q1 Laplace in 3-D, refined everywhere (the defaults study's problem).
  dapetra_test(dealii_step40_q1_3d_np2 NP 2 COMMAND dapetra-step40 --compare --dim 3 --degree 1 --uniform --initial 2 --cycles 3
               LABELS mpi TIMEOUT 300)
endif()
# deal.II's step-55 (Taylor-Hood Stokes) through Dapetra's block system
# against deal.II's own Trilinos and PETSc solves, four cycles: the program
# fails when a solution differs by more than 1e-8 or the errors fall slower
# than Taylor-Hood's rates.
if(TARGET dapetra-step55)
  foreach(np 1 3)
    dapetra_test(dealii_step55_np${np} NP ${np} COMMAND dapetra-step55 --compare --cycles 4 --tol 1e-12 LABELS mpi TIMEOUT 300)
  endforeach()
  # step-56's flow in 3-D (2, 4, 8 cells a side), GMRES with the block upper
  # triangular kind and inner solves as step-56 takes them (Flexible GMRES).
  # Its true residual (7e-13 at 1e-12) leaves the solutions 2.4e-8 apart
  # on the last mesh, MINRES's (2e-13) 5e-10: the agreement asked is 1e-7.
  dapetra_test(dealii_step56_np2 NP 2 COMMAND dapetra-step55 --dim 3 --kind upper --first-tolerance 1e-2 --second-tolerance 1e-6
               --compare --initial 1 --cycles 3 --tol 1e-12 --agree 1e-7 LABELS mpi TIMEOUT 300)
  # Teko's block Gauss-Seidel (upper triangle) with the same inner
  # preconditioners is the same preconditioner as the upper triangular kind:
  # the same solution, within 1e-9 (on Debian 12 to the last bit; on sid
  # 1.6e-11 here, 3e-10 at 1.5e5 dofs).
  if(TARGET dapetra::trilinos_teko)
    dapetra_test(dealii_step55_teko_np2 NP 2 COMMAND dapetra-step55 --kind upper --teko --initial 3 --cycles 3 --agree 1e-9
                 LABELS mpi TIMEOUT 300)
  endif()
endif()
