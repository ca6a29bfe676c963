// Overlapping views in one register scope. A 640-element slice of %x is
// loaded into %a (UB bytes 0..2559); %v1 and %v2 are views of it made by
// giving tiles addresses inside it: %v1 is a[128..383], %v2 is a[256..511],
// so the two views also overlap each other. The scope reads and writes
// through all three, with prefix, suffix and runtime masks; a[512..639]
// and every lane no store reaches must come out unchanged (sentinels).
//
// The scope needs a barrier before each access that overlaps an earlier
// one since the last barrier, one of the two a write:
//   (3) reads a[256..319] that (2) wrote            write -> read
//   (7) writes a[320..383] that (6) read            read -> write
//   (10) writes a[320..383] that (7) wrote          write -> write
// and the caller needs flags around it: the load of %a before the scope
// (MTE2 -> V), the snapshot %before that reads %a before the scope writes
// it (MTE3 -> V), and the snapshot %after (V -> MTE3).
!A = !pto.tile<1x640xf32, vec, addr = 0>
!V = !pto.tile<1x256xf32, vec, addr = 512>
!W = !pto.tile<1x256xf32, vec, addr = 1024>
func.func @vf_overlap(%x: !pto.tensor<1x?xf32>, %before: !pto.tensor<1x640xf32>,
                      %after: !pto.tensor<1x640xf32>, %s: f32, %k: index,
                      %off: index) -> (!pto.tensor<1x640xf32>, !pto.tensor<1x640xf32>)
    attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %a = pto.tile.load %x[%c0, %off] : !pto.tensor<1x?xf32> -> !A
  %v1 = pto.tile.create : !V
  %v2 = pto.tile.create : !W
  %snap = pto.tile.store %a, %before[%c0, %c0] : !A -> !pto.tensor<1x640xf32>
  %a1, %v11, %v21 = pto.reg_scope (%a, %v1, %v2, %s, %k)
      : (!A, !V, !W, f32, index) -> (!A, !V, !W) {
  ^bb0(%as: !A, %v1s: !V, %v2s: !W, %ss: f32, %ks: index):
    %r0 = pto.vreg.load %as[0] : !A                       // (1) a[0..63]
    %p10 = pto.vreg.prefix_mask 10
    pto.vreg.store %r0, %v2s[0] mask %p10 : !W            // (2) a[256..265]
    %r1 = pto.vreg.load %v1s[128] : !V                    // (3) a[256..319]
    %sb = pto.vreg.broadcast %ss : f32
    %r2 = pto.vreg.mul %r1, %sb                           // (4)
    %s20 = pto.vreg.suffix_mask 20
    pto.vreg.store %r2, %v1s[64] mask %s20 : !V           // (5) a[236..255]
    %r3 = pto.vreg.load %v2s[64] : !W                     // (6) a[320..383]
    pto.vreg.store %r2, %v1s[192] : !V                    // (7) a[320..383]
    %r4 = pto.vreg.load %as[192] : !A                     // (8) a[192..255]
    %r5 = pto.vreg.max %r3, %r4                           // (9)
    %gt = pto.vreg.cmp gt, %r3, %r4
    %r6 = pto.vreg.select %gt, %r3, %r0
    %mk = pto.vreg.runtime_mask %ks from 0 : index
    pto.vreg.store %r6, %v2s[64] mask %mk : !W            // (10) a[320..320+k)
    pto.vreg.store %r5, %as[448] : !A                     // (11) a[448..511]
    pto.reg_scope.yield %as, %v1s, %v2s : !A, !V, !W
  }
  %out = pto.tile.store %a1, %after[%c0, %c0] : !A -> !pto.tensor<1x640xf32>
  return %snap, %out : !pto.tensor<1x640xf32>, !pto.tensor<1x640xf32>
}
