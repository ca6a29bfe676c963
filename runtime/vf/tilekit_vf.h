//===- tilekit_vf.h - The vector-function device ABI on the CPU -*- C++ -*-===//
//
// What a vf-bundle's caller (kernel_entry) and helpers are compiled
// against (docs/vector-functions.md). The image they link into is raw
// `.text`: no data, no relocations, no library. So everything here is
// inline code without constants in memory, and the CPU stands in for the
// vector core: a register is 64 floats, a mask 64 bits, a flag or a
// barrier a compiler barrier (the CPU runs one pipe; the device needs
// them, so the code carries them where the device would).
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_RUNTIME_VF_TILEKIT_VF_H
#define TILEKIT_RUNTIME_VF_TILEKIT_VF_H

#include <stdint.h>

#define TK_VF_INLINE static inline __attribute__((always_inline))
#define TK_VF_LANES 64

/// A GM tensor argument: f32 elements, up to rank 4, strides in elements.
typedef struct {
  float *data;
  int64_t rank;
  int64_t dims[4];
  int64_t strides[4];
} tk_vf_tensor;

/// kernel_entry's one argument: the UB and the kernel's arguments by kind,
/// in the order the manifest lists them.
typedef struct {
  uint8_t *ub;
  tk_vf_tensor *tensors;
  const int64_t *ints;
  const float *floats;
} tk_vf_args;

/// A vector register: a vector type, so that copying one is register
/// moves (a 256-byte struct would be copied with memcpy, which the image
/// does not have).
typedef float tk_vreg __attribute__((vector_size(TK_VF_LANES * sizeof(float))));

enum { TK_PIPE_V = 1, TK_PIPE_MTE2 = 4, TK_PIPE_MTE3 = 5 };

TK_VF_INLINE void tk_vf_compiler_barrier(void) {
  __asm__ __volatile__("" ::: "memory");
}

// --- Caller ---------------------------------------------------------------

TK_VF_INLINE uint8_t *tk_vf_ub(const tk_vf_args *args) { return args->ub; }
TK_VF_INLINE tk_vf_tensor *tk_vf_tensor_arg(const tk_vf_args *args,
                                            int64_t i) {
  return &args->tensors[i];
}
TK_VF_INLINE int64_t tk_vf_int_arg(const tk_vf_args *args, int64_t i) {
  return args->ints[i];
}
TK_VF_INLINE float tk_vf_float_arg(const tk_vf_args *args, int64_t i) {
  return args->floats[i];
}
TK_VF_INLINE int64_t tk_vf_dim(const tk_vf_tensor *t, int64_t d) {
  return t->dims[d];
}
TK_VF_INLINE int64_t tk_vf_min(int64_t a, int64_t b) { return a < b ? a : b; }
TK_VF_INLINE int64_t tk_vf_max(int64_t a, int64_t b) { return a > b ? a : b; }
TK_VF_INLINE uint64_t tk_vf_minu(uint64_t a, uint64_t b) {
  return a < b ? a : b;
}
/// A load's valid extent: what is asked for, clamped to the data present
/// from `offset` on.
TK_VF_INLINE int64_t tk_vf_clamp(int64_t valid, int64_t dim, int64_t offset) {
  int64_t present = dim - offset;
  if (present < 0)
    present = 0;
  return valid < present ? valid : present;
}

/// GM to UB (MTE2): the valid rows x cols of a 2-D box at (row, col), the
/// rest of the rows x cols tile zero.
TK_VF_INLINE void tk_vf_copy_in(uint8_t *ub, int64_t addr,
                                const tk_vf_tensor *src, int64_t row,
                                int64_t col, int64_t rows, int64_t cols,
                                int64_t validRows, int64_t validCols) {
  float *dst = (float *)(ub + addr);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      dst[r * cols + c] =
          r < validRows && c < validCols
              ? src->data[(row + r) * src->strides[0] +
                          (col + c) * src->strides[1]]
              : 0.0f;
}

/// UB to GM (MTE3): the valid rows x cols of the tile, clamped to the
/// tensor.
TK_VF_INLINE void tk_vf_copy_out(tk_vf_tensor *dst, int64_t row, int64_t col,
                                 const uint8_t *ub, int64_t addr, int64_t cols,
                                 int64_t validRows, int64_t validCols) {
  const float *src = (const float *)(ub + addr);
  int64_t rows = tk_vf_clamp(validRows, dst->dims[0], row);
  int64_t width = tk_vf_clamp(validCols, dst->dims[1], col);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < width; ++c)
      dst->data[(row + r) * dst->strides[0] + (col + c) * dst->strides[1]] =
          src[r * cols + c];
}

/// Pipe events: `wait` may not start before everything `set` issued before
/// the set_flag has finished.
TK_VF_INLINE void tk_vf_set_flag(int set, int wait, int event) {
  (void)set, (void)wait, (void)event;
  tk_vf_compiler_barrier();
}
TK_VF_INLINE void tk_vf_wait_flag(int set, int wait, int event) {
  (void)set, (void)wait, (void)event;
  tk_vf_compiler_barrier();
}

/// The kernel's tail: every pipe drained before kernel_entry returns (the
/// normal end of a kernel; the calls get no barrier of their own).
TK_VF_INLINE void tk_vf_kernel_tail(void) { tk_vf_compiler_barrier(); }

// --- Helpers --------------------------------------------------------------

/// A capture's elements: the common UB base plus its planned displacement.
TK_VF_INLINE float *tk_vf_tile(uint8_t *ub, int64_t displacement) {
  return (float *)(ub + displacement);
}
/// Orders the helper's UB accesses before it against those after it.
TK_VF_INLINE void tk_vf_barrier(void) { tk_vf_compiler_barrier(); }

TK_VF_INLINE tk_vreg tk_vf_load(const float *tile, int64_t offset) {
  tk_vreg r;
  for (int l = 0; l < TK_VF_LANES; ++l)
    r[l] = tile[offset + l];
  return r;
}
TK_VF_INLINE void tk_vf_store(float *tile, int64_t offset, tk_vreg v) {
  for (int l = 0; l < TK_VF_LANES; ++l)
    tile[offset + l] = v[l];
}
TK_VF_INLINE void tk_vf_store_masked(float *tile, int64_t offset, tk_vreg v,
                                     uint64_t mask) {
  for (int l = 0; l < TK_VF_LANES; ++l)
    if ((mask >> l) & 1)
      tile[offset + l] = v[l];
}

#define TK_VF_BINARY(NAME, EXPR)                                               \
  TK_VF_INLINE tk_vreg tk_vf_##NAME(tk_vreg a, tk_vreg b) {                    \
    tk_vreg r;                                                                 \
    for (int l = 0; l < TK_VF_LANES; ++l) {                                    \
      float x = a[l], y = b[l];                                    \
      r[l] = (EXPR);                                                     \
    }                                                                          \
    return r;                                                                  \
  }
TK_VF_BINARY(add, x + y)
TK_VF_BINARY(sub, x - y)
TK_VF_BINARY(mul, x * y)
TK_VF_BINARY(div, x / y)
TK_VF_BINARY(max, x > y ? x : y)
TK_VF_BINARY(min, x < y ? x : y)
#undef TK_VF_BINARY

TK_VF_INLINE tk_vreg tk_vf_broadcast(float s) {
  tk_vreg r;
  for (int l = 0; l < TK_VF_LANES; ++l)
    r[l] = s;
  return r;
}

#define TK_VF_COMPARE(NAME, OP)                                                \
  TK_VF_INLINE uint64_t tk_vf_cmp_##NAME(tk_vreg a, tk_vreg b) {               \
    uint64_t m = 0;                                                            \
    for (int l = 0; l < TK_VF_LANES; ++l)                                      \
      m |= (uint64_t)(a[l] OP b[l]) << l;                          \
    return m;                                                                  \
  }
TK_VF_COMPARE(eq, ==)
TK_VF_COMPARE(ne, !=)
TK_VF_COMPARE(lt, <)
TK_VF_COMPARE(le, <=)
TK_VF_COMPARE(gt, >)
TK_VF_COMPARE(ge, >=)
#undef TK_VF_COMPARE

TK_VF_INLINE tk_vreg tk_vf_select(uint64_t mask, tk_vreg a, tk_vreg b) {
  tk_vreg r;
  for (int l = 0; l < TK_VF_LANES; ++l)
    r[l] = (mask >> l) & 1 ? a[l] : b[l];
  return r;
}

/// The first `count` lanes (clamped to 0..64).
TK_VF_INLINE uint64_t tk_vf_prefix_mask(int64_t count) {
  if (count <= 0)
    return 0;
  return count >= TK_VF_LANES ? ~(uint64_t)0 : ((uint64_t)1 << count) - 1;
}
TK_VF_INLINE uint64_t tk_vf_suffix_mask(int64_t count) {
  return ~tk_vf_prefix_mask(TK_VF_LANES - count);
}
/// Lanes `l` with base + l < count.
TK_VF_INLINE uint64_t tk_vf_runtime_mask(int64_t count, int64_t base) {
  return tk_vf_prefix_mask(count - base);
}

#endif // TILEKIT_RUNTIME_VF_TILEKIT_VF_H
