# The Python package: pytest under mpirun, every process running every test.
# DAPETRA_PYTHON_ENV: the environment that finds the built package.
set(pytest ${Python3_EXECUTABLE} -m pytest -q --color=no -p no:cacheprovider)
set(python ${DAPETRA_TESTS_DIR}/python)
foreach(np 1 2 3 4)
  dapetra_test(python_np${np} NP ${np} COMMAND ${pytest} ${python} LABELS python TIMEOUT 300 ENV ${DAPETRA_PYTHON_ENV})
endforeach()
foreach(np 2 3)  # one process's bad input, each in turn: everyone raises, nobody waits
  dapetra_test(python_fault_np${np} NP ${np} COMMAND ${pytest} ${python}/test_faults.py ${python}/test_errors.py
               LABELS python fault TIMEOUT 120 ENV ${DAPETRA_PYTHON_ENV})
endforeach()
# The README's Python example checks its own norm against NumPy's (it views
# the array as a Tpetra vector, so it needs the package built with Tpetra).
if(TARGET Dapetra::tpetra)
  foreach(np 1 2 3)
    dapetra_test(python_quickstart_np${np} NP ${np} COMMAND ${Python3_EXECUTABLE} ${DAPETRA_ROOT}/examples/python/quickstart.py
                 LABELS python TIMEOUT 120 ENV ${DAPETRA_PYTHON_ENV})
  endforeach()
endif()
# The refusals of the newer calls (owner rules, dot, column axes, builders,
# records that raise while being read),
# one process's input wrong at a time: everyone raises, nobody waits.
foreach(np 2 3)
  dapetra_test(python_fault_calls_np${np} NP ${np}
               COMMAND ${pytest} ${python}/test_index_map.py ${python}/test_reductions.py ${python}/test_distributions.py
                       ${python}/test_records.py ${python}/test_solve.py ${python}/test_checkpoint.py
                       -k every_process
               LABELS python fault TIMEOUT 120 ENV ${DAPETRA_PYTHON_ENV})
endforeach()
# Soak: Layout, HaloPlan, update and tpetra_view made anew 10^4 times with
# resident memory flat and values checked every round (its own program).
set(python_soak_env ${DAPETRA_PYTHON_ENV})
if(DAPETRA_SANITIZE)  # ASan's quarantine holds freed memory: values only
  list(APPEND python_soak_env DAPETRA_SOAK_MEMORY=unchecked)
endif()
foreach(np 2 4)
  dapetra_test(python_soak_np${np} NP ${np} COMMAND ${Python3_EXECUTABLE} ${python}/soak.py 10000 LABELS python TIMEOUT 300
               ENV ${python_soak_env})
endforeach()
dapetra_test(python_spec_np8 NP 8 COMMAND ${pytest} ${python}/test_spec_examples.py LABELS python TIMEOUT 300
             ENV ${DAPETRA_PYTHON_ENV})
# The Python finite-element example reports the C++ pipeline's errors on the same mesh.
if(TARGET dapetra-fem)
  dapetra_test(python_fem_example NP 0
               COMMAND ${Python3_EXECUTABLE} ${python}/fem_against_cpp.py ${MPIEXEC_EXECUTABLE} ${Python3_EXECUTABLE}
                       ${DAPETRA_ROOT}/examples/python/poisson.py $<TARGET_FILE:dapetra-fem>
                       ${CMAKE_CURRENT_BINARY_DIR}/python_fem
               LABELS python TIMEOUT 600 ENV ${DAPETRA_PYTHON_ENV})
  set_tests_properties(python_fem_example PROPERTIES PROCESSORS 3)
  # Its vector-valued twin: elasticity (nodes x components arrays, MueLu with rigid-body modes).
  dapetra_test(python_fem_elasticity_example NP 0
               COMMAND ${Python3_EXECUTABLE} ${python}/fem_against_cpp.py ${MPIEXEC_EXECUTABLE} ${Python3_EXECUTABLE}
                       ${DAPETRA_ROOT}/examples/python/elasticity.py $<TARGET_FILE:dapetra-fem>
                       ${CMAKE_CURRENT_BINARY_DIR}/python_fem_elasticity --elasticity
               LABELS python TIMEOUT 600 ENV ${DAPETRA_PYTHON_ENV})
  set_tests_properties(python_fem_elasticity_example PROPERTIES PROCESSORS 3)
endif()
# Taylor-Hood Stokes assembled by DOLFINx, solved through dapetra.solve_block
# (MINRES + block diagonal, GMRES + block upper triangular) against PETSc's
# field split on the same matrices. Not under the sanitizers: DOLFINx
# compiles its forms with the C compiler, which would run under the preloaded
# ASan runtime. One at a time: both would compile the same forms into one cache.
if(TARGET Dapetra::tpetra AND NOT DAPETRA_SANITIZE)
  # At 3 processes with a manufactured solution: the errors' rates are checked too.
  foreach(np 2 3)
    set(manufactured)
    if(np EQUAL 3)
      set(manufactured --manufactured)
    endif()
    dapetra_test(python_stokes_dolfinx_np${np} NP ${np}
                 COMMAND ${Python3_EXECUTABLE} ${DAPETRA_ROOT}/examples/python/stokes_dolfinx.py --check ${manufactured}
                 LABELS python TIMEOUT 300 ENV ${DAPETRA_PYTHON_ENV} RESOURCE_LOCK dolfinx_jit)
  endforeach()
  # In 3-D (tetrahedra, 8 and 16 cells a side, 3 equations per node).
  dapetra_test(python_stokes_dolfinx_3d_np2 NP 2
               COMMAND ${Python3_EXECUTABLE} ${DAPETRA_ROOT}/examples/python/stokes_dolfinx.py --check --manufactured
                       --dim 3 --n 8 16
               LABELS python TIMEOUT 300 ENV ${DAPETRA_PYTHON_ENV} RESOURCE_LOCK dolfinx_jit)
endif()
