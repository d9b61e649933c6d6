# The `scale` test: what creating each kind of layout and plan costs the
# busiest process in messages and bytes at 4, 16 and 64 processes
# (oversubscribed, small arrays of a fixed size per process), counted by
# Open MPI's message monitoring; it fails when a count grows from 16 to 64.
set(libs Dapetra::mpi)
set(defines)
if(TARGET Dapetra::tpetra)
  list(APPEND libs Dapetra::tpetra)
  list(APPEND defines DAPETRA_SCALE_TPETRA)
endif()
dapetra_test_program(count_creation SOURCES scale/count_creation.cpp LIBS ${libs} DEFINES ${defines})
find_package(Python3 COMPONENTS Interpreter)
if(NOT DAPETRA_SANITIZE AND Python3_Interpreter_FOUND)
  dapetra_test(scale NP 0 COMMAND ${Python3_EXECUTABLE} ${DAPETRA_TESTS_DIR}/scale/check_scale.py
               $<TARGET_FILE:count_creation> ${MPIEXEC_EXECUTABLE} LABELS scale TIMEOUT 1500)
  set_tests_properties(scale PROPERTIES RUN_SERIAL TRUE SKIP_RETURN_CODE 77)
endif()
