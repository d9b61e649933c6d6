# The `scale` test: what creating each kind of layout and plan costs the
# busiest process in messages and bytes, and the heap its objects keep, at
# 16 and 64 processes (oversubscribed, small arrays of a fixed size per
# process), counted by Open MPI's message monitoring. It fails when a kind's
# messages or bytes grow faster than log2 P (its reductions) from 16 to 64,
# a cost in proportion to P growing 4x there against a limit of 1.8x, or
# its heap more than 1.2x (tests/scale/check_scale.py; minutes on 2 cores:
# 64 processes start for each kind). scripts/scale runs it at other counts,
# tests/scale/simulate.py under SimGrid to thousands (docs/scaling.md).
set(libs Dapetra::mpi)
set(defines)
if(TARGET Dapetra::tpetra)
  list(APPEND libs Dapetra::tpetra)
  list(APPEND defines DAPETRA_SCALE_TPETRA)
endif()
dapetra_test_program(count_creation SOURCES scale/count_creation.cpp LIBS ${libs} DEFINES ${defines})
set(more)
# deal.II's kinds in a program of their own: each process that loads deal.II
# (about 200 shared libraries) spends 0.6 s of CPU on it, and the test starts
# 64 processes on 2 cores for every kind; the other kinds run without it.
if(TARGET Dapetra::dealii)
  dapetra_test_program(count_creation_dealii SOURCES scale/count_creation.cpp LIBS ${libs} Dapetra::dealii
                       DEFINES ${defines} DAPETRA_SCALE_DEALII)
  set(more --more $<TARGET_FILE:count_creation_dealii>)
endif()
find_package(Python3 COMPONENTS Interpreter)
if(NOT DAPETRA_SANITIZE AND NOT DAPETRA_TSAN AND Python3_Interpreter_FOUND)
  dapetra_test(scale NP 0 COMMAND ${Python3_EXECUTABLE} ${DAPETRA_TESTS_DIR}/scale/check_scale.py
               $<TARGET_FILE:count_creation> ${MPIEXEC_EXECUTABLE} ${more} --np 16 64 LABELS scale TIMEOUT 1200)
  set_tests_properties(scale PROPERTIES RUN_SERIAL TRUE SKIP_RETURN_CODE 77)
endif()
