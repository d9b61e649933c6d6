# The finite-element pipeline under MPI at 1-4 processes (label `mpi`).
dapetra_test_program(test_fem SOURCES fem/fem_main.cpp fem/test_fem.cpp fem/test_elasticity.cpp fem/serial_reference.cpp LIBS dapetra::fem GTest::gtest
                     DEFINES DAPETRA_FEM_MESHES="${DAPETRA_ROOT}/examples/fem/meshes")
# Under the sanitizers (5-10 times slower; MueLu's set-up most of all) the
# convergence studies are left to the plain build, and 2 and 3 processes
# cover even and uneven splits: the memory checks see every code path.
set(fem_counts 1 2 3 4)
set(fem_filter "")
if(DAPETRA_SANITIZE)
  set(fem_counts 2 3)
  set(fem_filter "--gtest_filter=-*Converges*:*StayFlat*")
endif()
foreach(np IN LISTS fem_counts)
  dapetra_test(fem_np${np} NP ${np} COMMAND test_fem ${fem_filter} LABELS mpi TIMEOUT 300)
endforeach()
# Faults in distributing the mesh (a part number that is not a rank, empty
# parts, an unreadable file) reach every process; the timeout catches a hang.
foreach(np 2 3 4)
  dapetra_test(fem_fault_np${np} NP ${np} COMMAND test_fem --gtest_filter=MeshParts.Faults* LABELS mpi fault TIMEOUT 120)
endforeach()
# dapetra-fem on bad input: one clear message, every process exits, nobody
# waits (the timeout catches a hang). name | processes | mesh | expected message
set(bad_inputs
    "quadrangles|2|bad_mesh_quadrangles.msh|bad_mesh_quadrangles.msh:[0-9]+: element [0-9]+ is a 4-node quadrangle"
    "truncated|3|bad_mesh_truncated.msh|bad_mesh_truncated.msh:1200: the file ends where .* should follow .truncated"
    "empty_part|3|two_triangles.txt|2 cells left part [0-9]+ empty"
    "missing|2|no_such_file.msh|no_such_file.msh: cannot open the mesh file")
foreach(case IN LISTS bad_inputs)
  string(REPLACE "|" ";" fields "${case}")
  list(GET fields 0 name)
  list(GET fields 1 np)
  list(GET fields 2 file)
  list(GET fields 3 expected)
  dapetra_test(fem_bad_input_${name}_np${np} NP ${np}
               COMMAND dapetra-fem --mesh ${DAPETRA_TESTS_DIR}/data/${file}
                       --out ${CMAKE_CURRENT_BINARY_DIR}/fem_bad
               LABELS mpi fault TIMEOUT 60 PASS_REGEX "dapetra-fem: [^\n]*${expected}"
               FAIL_REGEX "terminate called" "Signal:" "exited on signal")
endforeach()
# A MueLu list MueLu refuses (FEM_MUELU_XML): one message from rank 0, every
# process exits (before, MueLu's exception aborted every process).
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/fem_bad_muelu.xml
     "<ParameterList name=\"MueLu\"><Parameter name=\"multigrid algorithm\" type=\"string\" value=\"no such algorithm\"/></ParameterList>\n")
dapetra_test(fem_bad_muelu_np2 NP 2 COMMAND dapetra-fem --n 8 --out ${CMAKE_CURRENT_BINARY_DIR}/fem_bad
             LABELS mpi fault TIMEOUT 60 PASS_REGEX "dapetra-fem: rank 0: [^\n]*muelu(.|\n)*no such algorithm"
             FAIL_REGEX "terminate called" "Signal:" "exited on signal"
             ENV FEM_MUELU_XML=${CMAKE_CURRENT_BINARY_DIR}/fem_bad_muelu.xml)
# --help prints the program's own usage first (not Kokkos' options), once.
dapetra_test(fem_help_np2 NP 2 COMMAND dapetra-fem --help LABELS mpi TIMEOUT 60 PASS_REGEX "^usage: dapetra-fem"
             FAIL_REGEX "Kokkos" "usage:[^\n]*\n(.|\n)*usage:")
# Checkpoint and restart (with the HDF5 adapter): written at 3 processes,
# restarted at 2 and 4 on new partitions; the same nodes, values and errors.
# Scalar in 2-D, elasticity in 3-D. A missing checkpoint: one message, nobody waits.
# These end-to-end runs, and ParaView's reading of their output, are left to
# the plain build under the sanitizers: the checkpoint's own tests (hdf5_*)
# and the pipeline's (fem_np2, fem_np3) run there.
if(TARGET Dapetra::hdf5 AND Python3_EXECUTABLE AND DAPETRA_TEST_NP0 AND NOT DAPETRA_SANITIZE)
  foreach(case "poisson_2d|--n;24" "elasticity_3d|--3d;--elasticity;--n;5")
    string(REPLACE "|" ";" fields "${case}")
    list(GET fields 0 name)
    list(SUBLIST fields 1 -1 options)
    dapetra_test(fem_restart_${name} NP 0
                 COMMAND ${Python3_EXECUTABLE} ${DAPETRA_TESTS_DIR}/fem/restart.py ${MPIEXEC_EXECUTABLE}
                         $<TARGET_FILE:dapetra-fem> ${CMAKE_CURRENT_BINARY_DIR}/fem_restart_${name} ${options}
                 LABELS mpi TIMEOUT 600)
    set_tests_properties(fem_restart_${name} PROPERTIES PROCESSORS 3)
  endforeach()
  # The one-file output (solution.xdmf + solution.h5) opened by ParaView's
  # pvpython, headless (Debian 12's paraview 5.11, installed by scripts/lib/common.sh).
  find_program(DAPETRA_PVPYTHON pvpython)
  if(DAPETRA_PVPYTHON)
    foreach(case "poisson_2d|--n;24" "elasticity_2d|--elasticity;--n;16" "poisson_3d|--3d;--n;6")
      string(REPLACE "|" ";" fields "${case}")
      list(GET fields 0 name)
      list(SUBLIST fields 1 -1 options)
      dapetra_test(fem_paraview_${name} NP 0
                   COMMAND ${Python3_EXECUTABLE} ${DAPETRA_TESTS_DIR}/fem/paraview.py ${MPIEXEC_EXECUTABLE}
                           $<TARGET_FILE:dapetra-fem> ${DAPETRA_PVPYTHON} ${CMAKE_CURRENT_BINARY_DIR}/fem_paraview_${name}
                           ${options}
                   LABELS mpi TIMEOUT 600)
      set_tests_properties(fem_paraview_${name} PROPERTIES PROCESSORS 4)
    endforeach()
  else()
    message(STATUS "Dapetra: no pvpython (Debian: paraview), so ParaView does not open the pipeline's XDMF in the tests")
  endif()
endif()
if(TARGET Dapetra::hdf5)
  dapetra_test(fem_restart_missing_np2 NP 2
               COMMAND dapetra-fem --restart ${CMAKE_CURRENT_BINARY_DIR}/no_such_checkpoint.h5
                       --out ${CMAKE_CURRENT_BINARY_DIR}/fem_bad
               LABELS mpi fault TIMEOUT 60 PASS_REGEX "dapetra-fem: rank 0, key 'file'[^\n]*no_such_checkpoint.h5"
               FAIL_REGEX "terminate called" "Signal:" "exited on signal")
endif()
