# Shared by scripts/demo, scripts/test and scripts/bench: install what is
# missing from Debian's registry, then configure and build into build/.
# Sourced, not run.

DAPETRA_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# The plain build: build/, or build/<stack>/ for the other stacks (inside
# their chroots, where DAPETRA_STACK=newest or trilinos17; scripts/lib/stacks.sh).
DAPETRA_PLAIN_BUILD=$DAPETRA_ROOT/build${DAPETRA_STACK:+/$DAPETRA_STACK}
DAPETRA_BUILD=${DAPETRA_BUILD:-$DAPETRA_PLAIN_BUILD}

# dapetra_step TEXT: a step's heading, with the time of day (UTC), so a log
# shows where a run's minutes went.
dapetra_step() { echo "== [$(date -u +%H:%M:%S)] $*"; }

source "$DAPETRA_ROOT/scripts/lib/stacks.sh"

# Everything the build, tests and adapters use: the same names on every stack
# (Debian 12, and the chroots of scripts/lib/stacks.sh), but for the
# trilinos17 stack's (below).
# Debian's Tpetra CMake config also needs Kokkos, KokkosKernels and Epetra.
DAPETRA_PACKAGES=(
  build-essential cmake ccache pkg-config
  nlohmann-json3-dev libgtest-dev libeigen3-dev
  libopenmpi-dev openmpi-bin
  libtrilinos-teuchos-dev libtrilinos-tpetra-dev libtrilinos-kokkos-dev
  libtrilinos-kokkos-kernels-dev libtrilinos-epetra-dev
  # The finite-element example's solver stack: Belos', Ifpack2's and MueLu's CMake
  # configs need all of these (and scotch, zlib) on Debian 12; MueLu's config
  # also names Intrepid2 to Sacado (second line), though the example uses none.
  libtrilinos-belos-dev libtrilinos-ifpack2-dev libtrilinos-aztecoo-dev libtrilinos-epetraext-dev
  libtrilinos-rtop-dev libtrilinos-thyra-dev libtrilinos-triutils-dev libtrilinos-xpetra-dev
  libtrilinos-amesos2-dev libtrilinos-zoltan-dev libtrilinos-zoltan2-dev libtrilinos-shylu-dev libtrilinos-muelu-dev
  libtrilinos-intrepid2-dev libtrilinos-teko-dev libtrilinos-stratimikos-dev libtrilinos-anasazi-dev libtrilinos-ml-dev
  libtrilinos-ifpack-dev libtrilinos-amesos-dev libtrilinos-galeri-dev libtrilinos-isorropia-dev libtrilinos-shards-dev
  libtrilinos-sacado-dev
  libptscotch-dev zlib1g-dev
  # The benchmarks' 2-D redistribution baseline (pdgemr2d).
  libscalapack-openmpi-dev
  # The Python package and its tests, for Debian's own interpreter.
  python3-dev pybind11-dev python3-numpy python3-mpi4py python3-pytest python3-mpi4py-fft
  # The PETSc adapter, PETSc as the benchmark peer, and PETSc beside Belos in the Python example.
  petsc-dev python3-petsc4py
  # The finite-element benchmark's yardstick: DOLFINx on the same problem (benchmarks/fem_dolfinx.py).
  python3-dolfinx
  # The deal.II adapter, step-40 (examples/dealii) and deal.II's own Trilinos and PETSc paths as its peers.
  libdeal.ii-dev
  # Checkpoints (adapters/hdf5): parallel HDF5, and h5py to read them as a user would.
  libhdf5-openmpi-dev python3-h5py-mpi
  # ParaView (pvpython, headless) opens the pipeline's one-file output in the tests (Debian 12's stack only).
  paraview python3-paraview
  # The documents: API pages (scripts/docs), the architecture picture, the benchmark plots.
  doxygen graphviz python3-matplotlib
)

# The fuzz target's compiler and runtime (scripts/test --fuzz; CI installs
# them in its first stage with everything else).
DAPETRA_FUZZ_PACKAGES=(clang libclang-rt-14-dev)

# Trilinos 17 has no Epetra-based package, and Debian's deal.II is built on
# Trilinos 16.1 (its -dev package needs all of 16.1's), so neither is there.
# Debian built 17.0 with GO = int: the library must build there with no
# conversion warning, so they are errors on that stack.
DAPETRA_STACK_CMAKE_ARGS=()
# ParaView's check runs on Debian 12's stack; the other stacks do not install its 400 MB.
if [ -n "${DAPETRA_STACK:-}" ]; then
  _kept=()
  for p in "${DAPETRA_PACKAGES[@]}"; do
    case "$p" in paraview | python3-paraview) ;; *) _kept+=("$p") ;; esac
  done
  DAPETRA_PACKAGES=("${_kept[@]}")
  unset _kept
fi
if [ "${DAPETRA_STACK:-}" = trilinos17 ]; then
  _kept=()
  for p in "${DAPETRA_PACKAGES[@]}"; do
    case " ${DAPETRA_EPETRA_PACKAGES[*]/#/libtrilinos-} libdeal.ii " in
      *" ${p%-dev} "*) ;;
      *) _kept+=("$p") ;;
    esac
  done
  DAPETRA_PACKAGES=("${_kept[@]}")
  unset _kept
  DAPETRA_STACK_CMAKE_ARGS=(-DDAPETRA_ENABLE_DEALII=OFF -DDAPETRA_WARNINGS_AS_ERRORS=ON)
fi

# Debian's interpreter, whose python3-* packages the Python package needs
# (a python3 earlier on PATH, such as a pyenv shim, would not see them).
DAPETRA_PYTHON=${DAPETRA_PYTHON:-/usr/bin/python3}

dapetra_install_deps() {
  local missing=()
  for p in "${DAPETRA_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    dapetra_step "installing: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    # An install cut short (a CI run stopped mid-way) is finished first.
    DEBIAN_FRONTEND=noninteractive $sudo dpkg --configure -a
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  if [ "${DAPETRA_STACK:-}" = trilinos17 ]; then  # the pin must have given 17.0, not sid's 16.1
    local tpetra
    tpetra=$(dpkg-query -W -f='${Version}' libtrilinos-tpetra-dev)
    [[ "$tpetra" == 17.* ]] || { echo "the trilinos17 stack has Tpetra $tpetra" >&2; return 1; }
  fi
}

# The scripts' builds keep line tables only (-g1): backtraces, sanitizer
# reports and profiles still name file and line, and a Tpetra-heavy file
# compiles in 0.8 of the time of full debug information (-g). The sanitized
# and threaded builds are optimized at -O1, as the sanitizers' authors advise:
# there -O2 -g took 2.8 times the compiler time of -O1 -g1 (fe_matrix.cpp
# under ASan + UBSan, 61 s against 21 s; docs/packaging.md, "CI's budget").
DAPETRA_OPTIMIZED_FLAGS="-O2 -g1 -DNDEBUG"
DAPETRA_SANITIZED_FLAGS="-O1 -g1 -DNDEBUG"

# dapetra_configure [extra cmake -D options...]: RelWithDebInfo with
# $DAPETRA_OPTIMIZED_FLAGS, unless an option given sets CMAKE_CXX_FLAGS_RELWITHDEBINFO.
dapetra_configure() {
  mkdir -p "$DAPETRA_BUILD"
  local log="$DAPETRA_BUILD/configure.log"
  dapetra_step "configuring ${DAPETRA_BUILD#$DAPETRA_ROOT/}/"
  cmake -S "$DAPETRA_ROOT" -B "$DAPETRA_BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$DAPETRA_OPTIMIZED_FLAGS" \
    -DPython3_EXECUTABLE="$DAPETRA_PYTHON" "${DAPETRA_STACK_CMAKE_ARGS[@]}" "$@" >"$log" 2>&1 ||
    { cat "$log"; return 1; }
}

# dapetra_build [targets...]: all targets when none are named.
dapetra_build() {
  local args=()
  for t in "$@"; do args+=(--target "$t"); done
  dapetra_step "building ${*:-everything} (-j ${DAPETRA_JOBS:-2})"
  local log="$DAPETRA_BUILD/build.log"
  cmake --build "$DAPETRA_BUILD" -j "${DAPETRA_JOBS:-2}" "${args[@]}" >"$log" 2>&1 ||
    { tail -n 80 "$log"; return 1; }
}

# ccache hits across clones: paths under the clone are hashed relative to it
# (CI builds a fresh clone in another folder, after a session's builds of the
# same sources), and the Trilinos builds fit the cache beside one another.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$DAPETRA_ROOT} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-true}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-20G}

# OpenMPI refuses root without these; CI and developers run as root here.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

