//===- VectorClones.h - Hot loops compiled for more than one ISA --*- C++
//-*-===//
//
// TILEKIT_VECTOR_CLONES before a function with a hot elementwise loop
// compiles it for the x86-64 baseline and for AVX2; the dynamic loader
// picks the clone the CPU supports (GCC and Clang function multiversioning,
// resolved once per process through an ifunc). Elsewhere, and under the
// sanitizers and fuzzing builds, it expands to nothing.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_SUPPORT_VECTORCLONES_H
#define TILEKIT_SUPPORT_VECTORCLONES_H

#if defined(__x86_64__) && defined(__linux__) &&                               \
    !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__) &&         \
    !defined(TILEKIT_NO_VECTOR_CLONES)
#define TILEKIT_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define TILEKIT_VECTOR_CLONES
#endif

#endif // TILEKIT_SUPPORT_VECTORCLONES_H
