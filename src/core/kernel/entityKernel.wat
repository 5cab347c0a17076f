;; The entity kernel: per-entity number crunching of the recorder, 4 entities per f32x4 vector.
;;
;; Source of ENTITY_KERNEL_WASM in src/core/kernel/entityKernelWasm.ts: after editing, run
;; `npm run build:kernel` (scripts/build-kernel.mjs). The conversion of custom fields is a module
;; of its own (fieldKernel.wat) on the same memory. The JavaScript reference is encodeQuatColumns in
;; src/core/math/quat.ts, whose comment defines the encoder in float32 arithmetic: the kernel
;; computes the same bits (the kernel tests compare both with a literal implementation of the
;; definition). Where it reorders the definition's work, the comments say why the result is the
;; same. Keep the compiled module under 4 KB: browsers refuse to compile bigger modules
;; synchronously on the main thread.
;;
;; Memory (imported, owned by EntityKernel.ts): staging columns x, y, z, qx, qy, qz, qw, each
;; `stride` bytes apart (stride a multiple of 16, column length a multiple of 4 entities), so a
;; vector load of the last, partial group of 4 stays inside the columns. Only the valid lanes are
;; stored or counted.
(module
  (import "env" "memory" (memory 1))

  ;; encode(qx, stride, n, out) -> invalid count
  ;; Encodes the quaternions (qx, qy, qz, qw)[0..n) (columns at qx, qx + stride, ...) as smallest-three
  ;; 32-bit codes into out[0..n) (byte address, 4-aligned). Writes exactly n words. Returns how many
  ;; quaternions were invalid (squared norm outside (1e-20, 1e20), NaN, infinite): the identity code
  ;; is stored for them.
  ;;
  ;; Speed notes (measure any change: the instruction count and the dependency chains decide):
  ;; - Software pipelined: iteration j runs stage A (load, normalise, pick the largest) of vector j
  ;;   and stage B (round, score the candidates, store) of vector j - 1, so the two long dependency
  ;;   chains overlap. Stage A's results pass to stage B in $a.next ... $idx.next. The first
  ;;   iteration's stage B works on zeros and stores nothing; the last iteration's stage A reloads
  ;;   the last vector (never past the columns) and its results are dropped.
  ;; - Comparisons of non-negative, non-NaN floats are done on their bits as int32 (same order; the
  ;;   integer units are less busy). Squared norms outside (0.999, 1.001) (square root, invalid
  ;;   lanes) take a branch instead of costing every vector.
  ;; - alt is not clamped to [0, 1022]: it never matters. alt leaves the range only when t < 0 or
  ;;   t >= 1022, and then that candidate's D is about l² + a² = 1 > 0 (see quat.ts): it never
  ;;   wins, so the chosen alt is always in range.
  (func (export "encode") (param $p i32) (param $s i32) (param $n i32) (param $o i32) (result i32)
    ;; stage A
    (local $x v128) (local $y v128) (local $z v128) (local $w v128) (local $n2 v128) (local $inv v128)
    (local $m v128) (local $ax v128) (local $ay v128) (local $az v128) (local $aw v128)
    (local $g01 v128) (local $g23 v128) (local $high v128) (local $ge1 v128) (local $ge3 v128)
    (local $a.next v128) (local $b.next v128) (local $c.next v128) (local $sc.next v128)
    (local $l.next v128) (local $idx.next v128)
    ;; stage B
    (local $a v128) (local $b v128) (local $c v128) (local $sc v128) (local $l v128) (local $idx v128)
    (local $t v128) (local $h v128)
    (local $ra v128) (local $rb v128) (local $rc v128) (local $fa v128) (local $fb v128) (local $fc v128)
    (local $ga v128) (local $gb v128) (local $gc v128) (local $l2 v128) (local $sum v128)
    (local $f0 v128) (local $f1 v128) (local $f2 v128) (local $f3 v128) (local $w1 v128) (local $code v128)
    ;; loop state: $q the address stage A loads, $rem the entities stage A has yet to load
    (local $q i32) (local $rem i32) (local $first i32) (local $cnt v128)
    (block $done
      (br_if $done (i32.le_s (local.get $n) (i32.const 0)))
      (local.set $rem (local.get $n))
      (local.set $first (i32.const 1))
      (loop $next
        ;; ---- stage A, part 1 (vector j): n2 = ((x² + y²) + z²) + w²; inv = 1.5 - 0.5·n2 when
        ;; 0.999 < n2 < 1.001, else 1 / sqrt(n2). The range test on the bits: |bits(n2) - 0x3f7fef9e|
        ;; < 12583 (0.999 and 1.001 are 0x3f7fbe77 and 0x3f8020c5; NaNs, signed or not, are far).
        (local.set $q
          (select (local.get $p) (i32.sub (local.get $p) (i32.const 16)) (i32.gt_s (local.get $rem) (i32.const 0))))
        (local.set $x (v128.load (local.get $q)))
        (local.set $y (v128.load (i32.add (local.get $q) (local.get $s))))
        (local.set $z (v128.load (i32.add (local.get $q) (i32.shl (local.get $s) (i32.const 1)))))
        (local.set $w (v128.load (i32.add (local.get $q) (i32.mul (local.get $s) (i32.const 3)))))
        (local.set $n2
          (f32x4.add
            (f32x4.add
              (f32x4.add (f32x4.mul (local.get $x) (local.get $x)) (f32x4.mul (local.get $y) (local.get $y)))
              (f32x4.mul (local.get $z) (local.get $z)))
            (f32x4.mul (local.get $w) (local.get $w))))
        (local.set $inv
          (f32x4.sub (v128.const f32x4 1.5 1.5 1.5 1.5)
            (f32x4.mul (v128.const f32x4 0.5 0.5 0.5 0.5) (local.get $n2))))
        (local.set $m
          (i32x4.gt_s
            (i32x4.abs (i32x4.sub (local.get $n2) (v128.const i32x4 0x3f7fef9e 0x3f7fef9e 0x3f7fef9e 0x3f7fef9e)))
            (v128.const i32x4 12582 12582 12582 12582)))
        (if (v128.any_true (local.get $m))
          (then
            (local.set $inv
              (v128.bitselect
                (f32x4.div (v128.const f32x4 1 1 1 1) (f32x4.sqrt (local.get $n2)))
                (local.get $inv)
                (local.get $m)))
            ;; valid = 1e-20 < n2 < 1e20 (NaN compares false). An invalid lane becomes (0, 0, 0, 1)
            ;; with inv = 1, which encodes as the identity, and is counted (only lanes < rem: the
            ;; columns' tail and the last iteration's reload are not entities).
            (local.set $m
              (v128.and
                (f32x4.gt (local.get $n2) (v128.const f32x4 0x1.79ca10p-67 0x1.79ca10p-67 0x1.79ca10p-67 0x1.79ca10p-67))
                (f32x4.lt (local.get $n2) (v128.const f32x4 0x1.5af1d8p+66 0x1.5af1d8p+66 0x1.5af1d8p+66 0x1.5af1d8p+66))))
            (local.set $x (v128.and (local.get $x) (local.get $m)))
            (local.set $y (v128.and (local.get $y) (local.get $m)))
            (local.set $z (v128.and (local.get $z) (local.get $m)))
            (local.set $w (v128.bitselect (local.get $w) (v128.const f32x4 1 1 1 1) (local.get $m)))
            (local.set $inv (v128.bitselect (local.get $inv) (v128.const f32x4 1 1 1 1) (local.get $m)))
            (local.set $cnt
              (i32x4.sub (local.get $cnt)
                (v128.andnot (i32x4.lt_s (v128.const i32x4 0 1 2 3) (i32x4.splat (local.get $rem))) (local.get $m))))))

        ;; ---- stage B, part 1 (vector j - 1): per component t = a·SCALE + 511 (a with the sign
        ;; of n[idx]: sc = ±SCALE); near = trunc(t + 0.5); f = t - near (f = -e of the definition)
        ;; and its sign bit g: f < 0 exactly when near > t, that is when alt = near - 1 (s = -1);
        ;; f = +0 when near = t (s = +1). f is exact: t >= 1 is a multiple of 2^-23, t - 1 is exact
        ;; for t in [0.5, 1), and below 0.5, t = float32(a·SCALE) + 511 exactly, a multiple of
        ;; 2^-15, so t + 0.5 is exact, near = 0 and f = t.
        ;; near is taken as trunc(h + 511.5), h = a·SCALE, rather than trunc(t + 0.5): the same
        ;; integer, one addition earlier. For an integer k in [1, 1022], trunc(t + 0.5) >= k iff
        ;; t >= k - 0.5 (t + 0.5 rounds, if at all, past a power of two, never across an integer),
        ;; iff h + 511 >= k - 0.5 - u, and trunc(h + 511.5) >= k iff h + 511.5 >= k - u', where u and
        ;; u' are half the float32 spacing just below k - 0.5 and just below k (ties round up to
        ;; both: multiples of 2^-1, hence of an even number of spacings <= 2^-14). u = u' as k - 0.5
        ;; and k lie in one binade, except for k = 1, where h + 511 and h + 511.5 are exact.
        (local.set $h (f32x4.mul (local.get $a) (local.get $sc)))
        (local.set $ra (f32x4.trunc (f32x4.add (local.get $h) (v128.const f32x4 511.5 511.5 511.5 511.5))))
        (local.set $fa (f32x4.sub (f32x4.add (local.get $h) (v128.const f32x4 511 511 511 511)) (local.get $ra)))
        (local.set $ga (v128.and (local.get $fa) (v128.const i32x4 0x80000000 0x80000000 0x80000000 0x80000000)))
        (local.set $h (f32x4.mul (local.get $b) (local.get $sc)))
        (local.set $rb (f32x4.trunc (f32x4.add (local.get $h) (v128.const f32x4 511.5 511.5 511.5 511.5))))
        (local.set $fb (f32x4.sub (f32x4.add (local.get $h) (v128.const f32x4 511 511 511 511)) (local.get $rb)))
        (local.set $gb (v128.and (local.get $fb) (v128.const i32x4 0x80000000 0x80000000 0x80000000 0x80000000)))
        (local.set $h (f32x4.mul (local.get $c) (local.get $sc)))
        (local.set $rc (f32x4.trunc (f32x4.add (local.get $h) (v128.const f32x4 511.5 511.5 511.5 511.5))))
        (local.set $fc (f32x4.sub (f32x4.add (local.get $h) (v128.const f32x4 511 511 511 511)) (local.get $rc)))
        (local.set $gc (v128.and (local.get $fc) (v128.const i32x4 0x80000000 0x80000000 0x80000000 0x80000000)))

        ;; ---- stage A, part 2: normalise; |component| as bits (sign cleared): g01 = |y| > |x|,
        ;; g23 = |w| > |z|, high = max(|z|, |w|) > max(|x|, |y|), l = the largest (ties go to the
        ;; lowest index); idx = high ? 2 + g23 : g01.
        (local.set $x (f32x4.mul (local.get $x) (local.get $inv)))
        (local.set $y (f32x4.mul (local.get $y) (local.get $inv)))
        (local.set $z (f32x4.mul (local.get $z) (local.get $inv)))
        (local.set $w (f32x4.mul (local.get $w) (local.get $inv)))
        (local.set $ax (v128.and (local.get $x) (v128.const i32x4 0x7fffffff 0x7fffffff 0x7fffffff 0x7fffffff)))
        (local.set $ay (v128.and (local.get $y) (v128.const i32x4 0x7fffffff 0x7fffffff 0x7fffffff 0x7fffffff)))
        (local.set $az (v128.and (local.get $z) (v128.const i32x4 0x7fffffff 0x7fffffff 0x7fffffff 0x7fffffff)))
        (local.set $aw (v128.and (local.get $w) (v128.const i32x4 0x7fffffff 0x7fffffff 0x7fffffff 0x7fffffff)))
        (local.set $g01 (i32x4.gt_s (local.get $ay) (local.get $ax)))
        (local.set $g23 (i32x4.gt_s (local.get $aw) (local.get $az)))
        (local.set $ax (i32x4.max_s (local.get $ax) (local.get $ay)))
        (local.set $az (i32x4.max_s (local.get $az) (local.get $aw)))
        (local.set $high (i32x4.gt_s (local.get $az) (local.get $ax)))
        (local.set $l.next (i32x4.max_s (local.get $ax) (local.get $az)))
        ;; ge1 = idx >= 1, high = idx >= 2, ge3 = idx >= 3; idx << 30 = -(ge1 + high + ge3) << 30
        (local.set $ge1 (v128.or (local.get $high) (local.get $g01)))
        (local.set $ge3 (v128.and (local.get $high) (local.get $g23)))
        (local.set $idx.next
          (i32x4.shl
            (i32x4.sub (i32x4.sub (i32x4.sub (v128.const i32x4 0 0 0 0) (local.get $ge1)) (local.get $high))
              (local.get $ge3))
            (i32.const 30)))
        ;; the others in increasing index order: a = idx >= 1 ? x : y, b = idx >= 2 ? y : z,
        ;; c = idx >= 3 ? z : w (selected as y ^ (ge1 & (x ^ y)) ...)
        (local.set $ax (v128.xor (local.get $x) (local.get $y)))
        (local.set $az (v128.xor (local.get $z) (local.get $w)))
        (local.set $a.next (v128.xor (local.get $y) (v128.and (local.get $ge1) (local.get $ax))))
        (local.set $b.next
          (v128.xor (local.get $z) (v128.and (local.get $high) (v128.xor (local.get $y) (local.get $z)))))
        (local.set $c.next (v128.xor (local.get $w) (v128.and (local.get $ge3) (local.get $az))))
        ;; q and -q are the same rotation: the definition negates all four when n[idx] < 0. Only t
        ;; needs the sign of a, b, c (a·(-SCALE) = -(a·SCALE) exactly; the scores use S², the same
        ;; for -S), so sc = SCALE with the sign of n[idx] = x ^ y ^ z ^ w ^ a ^ b ^ c (bitwise).
        (local.set $sc.next
          (v128.xor (v128.const f32x4 0x1.6954e2p+9 0x1.6954e2p+9 0x1.6954e2p+9 0x1.6954e2p+9)
            (v128.and (v128.const i32x4 0x80000000 0x80000000 0x80000000 0x80000000)
              (v128.xor (v128.xor (local.get $ax) (local.get $az))
                (v128.xor (v128.xor (local.get $a.next) (local.get $b.next)) (local.get $c.next))))))

        ;; ---- stage B, part 2: the scores D_j = (L2 + a_j·a_j) + 2·(s_j·((L2·e_j) + (S·a_j))) of
        ;; the definition (quat.ts), with e = -f. Here a, b, c may have the other sign (sc carries
        ;; it): S' = ((a·fa + b·fb) + c·fc) is exactly S or -S, S'·a is exactly -(S·a_j) and
        ;; L2·f = -(L2·e_j), so P' = (L2·f) + (S'·a) is exactly -P of the definition (rounding to
        ;; nearest is symmetric) and D = (L2 + a²) - 2·(s·P'), where s·P' is P' with its sign
        ;; flipped by g. The 2 is taken into the products, to shorten the dependency chain:
        ;; (L2 + L2)·f = 2·(L2·f) exactly (L2 >= 0.25, f = 0 or |f| >= 2^-23: no underflow), and
        ;; S'·(a + a) = 2·(S'·a) exactly unless |S'·a| < 2^-126. Then P2 = (L2x2·f) + (S'·a2) is
        ;; 2·P' all the same: with f ≠ 0, S'·a is far below half an ulp of L2·f (>= 2^-25) and
        ;; does not change the sum, and with f = 0, P' and P2 are below 2^-125 and A - 2·P' = A
        ;; (A >= 0.25) either way.
        (local.set $l2 (f32x4.mul (local.get $l) (local.get $l)))
        (local.set $sum
          (f32x4.add
            (f32x4.add (f32x4.mul (local.get $a) (local.get $fa)) (f32x4.mul (local.get $b) (local.get $fb)))
            (f32x4.mul (local.get $c) (local.get $fc))))
        (local.set $t (f32x4.add (local.get $l2) (local.get $l2)))
        (local.set $f1
          (f32x4.sub (f32x4.add (local.get $l2) (f32x4.mul (local.get $a) (local.get $a)))
            (v128.xor (local.get $ga)
              (f32x4.add (f32x4.mul (local.get $t) (local.get $fa))
                (f32x4.mul (local.get $sum) (f32x4.add (local.get $a) (local.get $a)))))))
        (local.set $f2
          (f32x4.sub (f32x4.add (local.get $l2) (f32x4.mul (local.get $b) (local.get $b)))
            (v128.xor (local.get $gb)
              (f32x4.add (f32x4.mul (local.get $t) (local.get $fb))
                (f32x4.mul (local.get $sum) (f32x4.add (local.get $b) (local.get $b)))))))
        (local.set $f3
          (f32x4.sub (f32x4.add (local.get $l2) (f32x4.mul (local.get $c) (local.get $c)))
            (v128.xor (local.get $gc)
              (f32x4.add (f32x4.mul (local.get $t) (local.get $fc))
                (f32x4.mul (local.get $sum) (f32x4.add (local.get $c) (local.get $c)))))))
        ;; C0's code, bits = idx<<30 | ka<<20 | kb<<10 | kc: ka·1024 + kb + 2^23 < 2^24 is exact, a
        ;; float whose mantissa is ka·1024 + kb, and << 10 drops its exponent; kc + 2^23 has kc in
        ;; its low bits.
        (local.set $code
          (v128.or (local.get $idx)
            (v128.or
              (i32x4.shl
                (f32x4.add (f32x4.mul (local.get $ra) (v128.const f32x4 1024 1024 1024 1024))
                  (f32x4.add (local.get $rb) (v128.const f32x4 8388608 8388608 8388608 8388608)))
                (i32.const 10))
              (v128.and
                (f32x4.add (local.get $rc) (v128.const f32x4 8388608 8388608 8388608 8388608))
                (v128.const i32x4 0x3ff 0x3ff 0x3ff 0x3ff)))))
        ;; what moving each component to alt adds to the code: s·2^20, s·2^10, s (s = 1 - 2·[g]).
        ;; The chosen alt is in [0, 1022] (see above), so the field does not overflow.
        (local.set $ga (i32x4.sub (v128.const i32x4 0x100000 0x100000 0x100000 0x100000) (i32x4.shr_u (local.get $ga) (i32.const 10))))
        (local.set $gb (i32x4.sub (v128.const i32x4 0x400 0x400 0x400 0x400) (i32x4.shr_u (local.get $gb) (i32.const 20))))
        (local.set $gc (i32x4.sub (v128.const i32x4 1 1 1 1) (i32x4.shr_u (local.get $gc) (i32.const 30))))
        ;; the smallest D below 0 (C0's), ties to the earlier candidate: $f0 the best D so far, $w1
        ;; the change to the code so far. pmin(x, y) = y < x ? y : x.
        (local.set $w1 (v128.and (local.get $ga) (f32x4.lt (local.get $f1) (v128.const f32x4 0 0 0 0))))
        (local.set $f0 (f32x4.pmin (v128.const f32x4 0 0 0 0) (local.get $f1)))
        (local.set $w1 (v128.bitselect (local.get $gb) (local.get $w1) (f32x4.lt (local.get $f2) (local.get $f0))))
        (local.set $f0 (f32x4.pmin (local.get $f0) (local.get $f2)))
        (local.set $w1 (v128.bitselect (local.get $gc) (local.get $w1) (f32x4.lt (local.get $f3) (local.get $f0))))
        (local.set $code (i32x4.add (local.get $code) (local.get $w1)))

        ;; ---- hand over, store vector j - 1 (none in the first iteration), step
        (local.set $a (local.get $a.next))
        (local.set $b (local.get $b.next))
        (local.set $c (local.get $c.next))
        (local.set $sc (local.get $sc.next))
        (local.set $l (local.get $l.next))
        (local.set $idx (local.get $idx.next))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (local.set $rem (i32.sub (local.get $rem) (i32.const 4)))
        (if (local.get $first)
          (then
            (local.set $first (i32.const 0))
            (br $next)))
        (if (i32.lt_s (local.get $n) (i32.const 4))
          (then
            ;; the last, partial vector: store only lanes 0 .. n-1
            (v128.store32_lane 0 (local.get $o) (local.get $code))
            (if (i32.gt_s (local.get $n) (i32.const 1))
              (then (v128.store32_lane offset=4 1 (local.get $o) (local.get $code))))
            (if (i32.gt_s (local.get $n) (i32.const 2))
              (then (v128.store32_lane offset=8 2 (local.get $o) (local.get $code))))
            (br $done)))
        (v128.store (local.get $o) (local.get $code))
        (local.set $o (i32.add (local.get $o) (i32.const 16)))
        (local.set $n (i32.sub (local.get $n) (i32.const 4)))
        (br_if $next (i32.gt_s (local.get $n) (i32.const 0)))))
    ;; the invalid count
    (i32.add
      (i32.add (i32x4.extract_lane 0 (local.get $cnt)) (i32x4.extract_lane 1 (local.get $cnt)))
      (i32.add (i32x4.extract_lane 2 (local.get $cnt)) (i32x4.extract_lane 3 (local.get $cnt)))))

  ;; pack(x, stride, n, out) -> non-finite count
  ;; Interleaves the columns x, y, z [0..n) (at x, x + stride, x + 2·stride) into n xyz triples at out
  ;; (byte address, 4-aligned), as bit-exact copies. Writes exactly 3n words. Returns how many
  ;; entities have a NaN or infinite coordinate (exponent bits all ones).
  (func (export "pack") (param $p i32) (param $s i32) (param $n i32) (param $o i32) (result i32)
    (local $x v128) (local $y v128) (local $z v128) (local $t v128) (local $cnt v128)
    (local $bad i32) (local $xi i32) (local $yi i32) (local $zi i32)
    (block $vectors
      (loop $next
        (br_if $vectors (i32.lt_s (local.get $n) (i32.const 4)))
        (local.set $x (v128.load (local.get $p)))
        (local.set $y (v128.load (i32.add (local.get $p) (local.get $s))))
        (local.set $z (v128.load (i32.add (local.get $p) (i32.shl (local.get $s) (i32.const 1)))))
        (local.set $cnt
          (i32x4.sub (local.get $cnt)
            (v128.or
              (v128.or
                (i32x4.eq (v128.and (local.get $x) (v128.const i32x4 0x7f800000 0x7f800000 0x7f800000 0x7f800000))
                  (v128.const i32x4 0x7f800000 0x7f800000 0x7f800000 0x7f800000))
                (i32x4.eq (v128.and (local.get $y) (v128.const i32x4 0x7f800000 0x7f800000 0x7f800000 0x7f800000))
                  (v128.const i32x4 0x7f800000 0x7f800000 0x7f800000 0x7f800000)))
              (i32x4.eq (v128.and (local.get $z) (v128.const i32x4 0x7f800000 0x7f800000 0x7f800000 0x7f800000))
                (v128.const i32x4 0x7f800000 0x7f800000 0x7f800000 0x7f800000)))))
        ;; [x0 y0 z0 x1] [y1 z1 x2 y2] [z2 x3 y3 z3]
        (local.set $t (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $x) (local.get $y)))
        (v128.store (local.get $o)
          (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 8 9 10 11 (local.get $t) (local.get $z)))
        (local.set $t (i8x16.shuffle 4 5 6 7 20 21 22 23 8 9 10 11 24 25 26 27 (local.get $y) (local.get $z)))
        (v128.store offset=16 (local.get $o)
          (i8x16.shuffle 0 1 2 3 4 5 6 7 24 25 26 27 8 9 10 11 (local.get $t) (local.get $x)))
        (local.set $t (i8x16.shuffle 12 13 14 15 28 29 30 31 12 13 14 15 28 29 30 31 (local.get $x) (local.get $y)))
        (v128.store offset=32 (local.get $o)
          (i8x16.shuffle 24 25 26 27 0 1 2 3 4 5 6 7 28 29 30 31 (local.get $t) (local.get $z)))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (local.set $o (i32.add (local.get $o) (i32.const 48)))
        (local.set $n (i32.sub (local.get $n) (i32.const 4)))
        (br $next)))
    ;; the last 0..3 entities, one word at a time
    (block $tail
      (loop $one
        (br_if $tail (i32.le_s (local.get $n) (i32.const 0)))
        (local.set $xi (i32.load (local.get $p)))
        (local.set $yi (i32.load (i32.add (local.get $p) (local.get $s))))
        (local.set $zi (i32.load (i32.add (local.get $p) (i32.shl (local.get $s) (i32.const 1)))))
        (i32.store (local.get $o) (local.get $xi))
        (i32.store offset=4 (local.get $o) (local.get $yi))
        (i32.store offset=8 (local.get $o) (local.get $zi))
        (local.set $bad
          (i32.add (local.get $bad)
            (i32.or
              (i32.or
                (i32.eq (i32.and (local.get $xi) (i32.const 0x7f800000)) (i32.const 0x7f800000))
                (i32.eq (i32.and (local.get $yi) (i32.const 0x7f800000)) (i32.const 0x7f800000)))
              (i32.eq (i32.and (local.get $zi) (i32.const 0x7f800000)) (i32.const 0x7f800000)))))
        (local.set $p (i32.add (local.get $p) (i32.const 4)))
        (local.set $o (i32.add (local.get $o) (i32.const 12)))
        (local.set $n (i32.sub (local.get $n) (i32.const 1)))
        (br $one)))
    (i32.add (local.get $bad)
      (i32.add
        (i32.add (i32x4.extract_lane 0 (local.get $cnt)) (i32x4.extract_lane 1 (local.get $cnt)))
        (i32.add (i32x4.extract_lane 2 (local.get $cnt)) (i32x4.extract_lane 3 (local.get $cnt))))))

  ;; match(i, end, dropped, out, header) -> the first entry not taken
  ;; The recorder's resolve (EntityResolver.resolve, whose JavaScript path applies the same rules):
  ;; entries that continue an open life, and new lives while there is room. `header` holds the byte
  ;; addresses of: staged ids, staged flags (bytes), the previous frame's ids, (word 3: room, the
  ;; new lives this call may open, read and written back), this frame's ids and handles, the
  ;; births list, the hash of open lives (OpenLives.ts: slot s is two words at slots + 8s, the id
  ;; and the life's index in the newest list that holds it); then the hash's mask and shift, the
  ;; largest id + 1, the previous frame's entry count, the previous frame's handles, `taken` (a byte
  ;; per entry of the previous frame: 0 while its life may continue, 1 once it did, 2 once
  ;; despawned), (word 14) the births listed so far, read and written back, and (word 15) what the
  ;; reading ahead of an out-of-place entry loaded (written, never read).
  ;;
  ;; From entry i up to end, with m = i - dropped, while the entry continues a life of the previous
  ;; frame, at index j there: taken[j] = 1, the life's handle prevHandles[j] and its id go to this
  ;; frame's lists at m, and handle | flags[i] << 24 to the word at out + 4i. An id with no open life
  ;; opens one while room > 0: its slot (id, m) goes into the hash at the empty slot that ended the
  ;; probe, its id to this frame's ids at m, and i to the births list; its handle and word are left
  ;; for JavaScript (EntityResolver allocates them, in entry order, as soon as the call returns, and
  ;; gives room only when no allocation can fail). Stops at a bad id, a new life without room, or an
  ;; id recorded already in this frame (a duplicate).
  ;;
  ;; While nothing was dropped and the last entry taken alone was in place, an entry with the id the
  ;; previous frame had at the same position (j = i = m) continues that life when taken[i] = 0, four
  ;; at a time while all four do: its slot already says i, so the hash is not touched. Otherwise one
  ;; probe sequence of the hash (linear, Fibonacci hashing: slot = (id · 0x9e3779b1) >>> shift)
  ;; finds the life and its index j: recorded already in this frame when j < m and this frame's
  ;; ids[j] is the id; else it continues, and its slot's index becomes m.
  (func (export "match") (param $i i32) (param $end i32) (param $dropped i32)
    (param $out i32) (param $hdr i32) (result i32)
    (local $ids i32) (local $flags i32) (local $pids i32) (local $cur i32) (local $cids i32) (local $ch i32)
    (local $slots i32) (local $mask i32) (local $shift i32) (local $max i32) (local $pend i32)
    (local $ph i32) (local $taken i32) (local $k i32) (local $id i32) (local $s i32) (local $a i32)
    (local $j i32) (local $h i32) (local $key i32) (local $m i32) (local $vh v128) (local $near i32)
    (local $room i32) (local $births i32) (local $nb i32) (local $touch i32)
    (local.set $ids (i32.load (local.get $hdr)))
    (local.set $flags (i32.load offset=4 (local.get $hdr)))
    (local.set $pids (i32.load offset=8 (local.get $hdr)))
    (local.set $cur (i32.load offset=16 (local.get $hdr)))
    (local.set $k (i32.shl (local.get $dropped) (i32.const 2)))
    (local.set $cids (i32.sub (local.get $cur) (local.get $k)))
    (local.set $ch (i32.sub (i32.load offset=20 (local.get $hdr)) (local.get $k)))
    (local.set $slots (i32.load offset=28 (local.get $hdr)))
    (local.set $mask (i32.load offset=32 (local.get $hdr)))
    (local.set $shift (i32.load offset=36 (local.get $hdr)))
    (local.set $max (i32.load offset=40 (local.get $hdr)))
    ;; the position test only among the previous frame's entries, and only while nothing was dropped
    (local.set $pend (i32.load offset=44 (local.get $hdr)))
    (if (i32.gt_s (local.get $pend) (local.get $end)) (then (local.set $pend (local.get $end))))
    (if (local.get $dropped) (then (local.set $pend (i32.const 0))))
    (local.set $ph (i32.load offset=48 (local.get $hdr)))
    (local.set $taken (i32.load offset=52 (local.get $hdr)))
    (local.set $near (i32.const 1))
    (local.set $room (i32.load offset=12 (local.get $hdr)))
    (local.set $births (i32.load offset=24 (local.get $hdr)))
    (local.set $nb (i32.load offset=56 (local.get $hdr)))
    (block $done
      (loop $next
        (local.set $k (i32.shl (local.get $i) (i32.const 2)))
        (block $single
          ;; tried only while the entries are in place (the last one taken alone was): in a
          ;; reordered frame the test would fail, and mispredict, at nearly every entry
          (br_if $single (i32.eqz (local.get $near)))
          (br_if $single (i32.gt_s (i32.add (local.get $i) (i32.const 4)) (local.get $pend)))
          (local.set $vh (v128.load (i32.add (local.get $ids) (local.get $k))))
          (br_if $single (i32.eqz (i32x4.all_true
            (i32x4.eq (local.get $vh) (v128.load (i32.add (local.get $pids) (local.get $k)))))))
          ;; taken after the ids: its word overlaps bytes stored by the entries just before (a
          ;; store-forwarding stall when read early)
          (br_if $single (i32.load (i32.add (local.get $taken) (local.get $i))))
          (v128.store (i32.add (local.get $cids) (local.get $k)) (local.get $vh))
          (i32.store (i32.add (local.get $taken) (local.get $i)) (i32.const 0x01010101))
          (local.set $vh (v128.load (i32.add (local.get $ph) (local.get $k))))
          ;; handle | flags << 24: the four flag bytes widened to four words
          (v128.store (i32.add (local.get $out) (local.get $k))
            (v128.or (local.get $vh)
              (i32x4.shl
                (i32x4.extend_low_i16x8_u (i16x8.extend_low_i8x16_u
                  (v128.load32_zero (i32.add (local.get $flags) (local.get $i)))))
                (i32.const 24))))
          (v128.store (i32.add (local.get $ch) (local.get $k)) (local.get $vh))
          (local.set $i (i32.add (local.get $i) (i32.const 4)))
          (br $next))
        ;; one entry
        (br_if $done (i32.ge_s (local.get $i) (local.get $end)))
        (local.set $id (i32.load (i32.add (local.get $ids) (local.get $k))))
        ;; an id out of range, for JavaScript (-1 would match an empty slot)
        (br_if $done (i32.ge_u (local.get $id) (local.get $max)))
        (local.set $m (i32.sub (local.get $i) (local.get $dropped)))
        (block $take
          ;; the same position as in the previous frame
          (local.set $j (local.get $i))
          (br_if $take
            (i32.and
              (i32.and (i32.lt_s (local.get $i) (local.get $pend))
                (i32.eq (local.get $id) (i32.load (i32.add (local.get $pids) (local.get $k)))))
              (i32.eqz (i32.load8_u (i32.add (local.get $taken) (local.get $i))))))
          ;; reading ahead: the home slot of the entry 32 ahead, so that its cache miss overlaps
          ;; the ones between (a mispredicted branch, frequent in a reordered frame, empties the
          ;; out-of-order window and the loads in it). The id read may lie past `end` or past the
          ;; staged ids' column (in the lists after it, inside the block): any word gives a slot
          ;; inside the hash. What the loads found is stored in header word 15, so that they stay.
          (local.set $touch
            (i32.or (local.get $touch)
              (i32.load (i32.add (local.get $slots)
                (i32.shl
                  (i32.shr_u (i32.mul (i32.load offset=128 (i32.add (local.get $ids) (local.get $k))) (i32.const 0x9e3779b1))
                    (local.get $shift))
                  (i32.const 3))))))
          ;; a probe. The home slot and the one after it first, in one load, both ids compared at
          ;; once (lanes 0 and 2; the block ends with an empty guard slot): a life one slot past its
          ;; home, frequent, costs no branch of its own, which would mispredict in a reordered frame
          (local.set $s (i32.shr_u (i32.mul (local.get $id) (i32.const 0x9e3779b1)) (local.get $shift)))
          (block $found
            (local.set $a (i32.add (local.get $slots) (i32.shl (local.get $s) (i32.const 3))))
            (local.set $key
              (i32.and (i32x4.bitmask (i32x4.eq (v128.load (local.get $a)) (i32x4.splat (local.get $id))))
                (i32.const 5)))
            (local.set $a (i32.add (local.get $a) (i32.shl (i32.and (local.get $key) (i32.const 4)) (i32.const 1))))
            (br_if $found (local.get $key))
            (loop $probe
              (local.set $a (i32.add (local.get $slots) (i32.shl (local.get $s) (i32.const 3))))
              (local.set $key (i32.load (local.get $a)))
              (if (i32.ne (local.get $key) (local.get $id))
                (then
                  (if (i32.eq (local.get $key) (i32.const -1))
                    (then
                      ;; no open life: a new one. Opened here while there is room (its handle is
                      ;; JavaScript's to allocate: entry i goes to the births list, its handle and
                      ;; word are written after the call), else for JavaScript.
                      (br_if $done (i32.eqz (local.get $room)))
                      (local.set $room (i32.sub (local.get $room) (i32.const 1)))
                      (i32.store (local.get $a) (local.get $id))
                      (i32.store offset=4 (local.get $a) (local.get $m))
                      (i32.store (i32.add (local.get $births) (i32.shl (local.get $nb) (i32.const 2))) (local.get $i))
                      (local.set $nb (i32.add (local.get $nb) (i32.const 1)))
                      (i32.store (i32.add (local.get $cids) (local.get $k)) (local.get $id))
                      (local.set $near (i32.const 0))
                      (local.set $i (i32.add (local.get $i) (i32.const 1)))
                      (br $next)))
                  (local.set $s (i32.and (i32.add (local.get $s) (i32.const 1)) (local.get $mask)))
                  (br $probe)))))
          (local.set $j (i32.load offset=4 (local.get $a)))
          ;; recorded already in this frame: a duplicate, for JavaScript
          (br_if $done
            (i32.and (i32.lt_u (local.get $j) (local.get $m))
              (i32.eq (i32.load (i32.add (local.get $cur) (i32.shl (local.get $j) (i32.const 2)))) (local.get $id))))
          (i32.store offset=4 (local.get $a) (local.get $m)))
        (local.set $near (i32.eq (local.get $j) (local.get $i)))
        (i32.store8 (i32.add (local.get $taken) (local.get $j)) (i32.const 1))
        (local.set $h (i32.load (i32.add (local.get $ph) (i32.shl (local.get $j) (i32.const 2)))))
        (i32.store (i32.add (local.get $out) (local.get $k))
          (i32.or (local.get $h) (i32.shl (i32.load8_u (i32.add (local.get $flags) (local.get $i))) (i32.const 24))))
        (i32.store (i32.add (local.get $ch) (local.get $k)) (local.get $h))
        (i32.store (i32.add (local.get $cids) (local.get $k)) (local.get $id))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (i32.store offset=12 (local.get $hdr) (local.get $room))
    (i32.store offset=56 (local.get $hdr) (local.get $nb))
    (i32.store offset=60 (local.get $hdr) (local.get $touch))
    (local.get $i))

  ;; despawn(k, n, header) -> the first entry not taken
  ;; The despawns queued before the frame's first entry (EntityResolver.despawnQueued): the ids in
  ;; the births list [k, n) (the list is free until `match` runs; header as for `match`). While the
  ;; id is in [0, largest id + 1) and has an open life, that life leaves the hash (backward-shift
  ;; deletion, as OpenLives.remove), its entry j of the previous frame is marked despawned
  ;; (taken[j] = 2), and its handle prevHandles[j] replaces the id in the list. Stops at an id with no
  ;; open life or out of range (for JavaScript: such a despawn may end a life that is not open).
  (func (export "despawn") (param $k i32) (param $n i32) (param $hdr i32) (result i32)
    (local $list i32) (local $slots i32) (local $mask i32) (local $shift i32) (local $max i32)
    (local $ph i32) (local $taken i32) (local $id i32) (local $s i32) (local $a i32) (local $key i32)
    (local $j i32) (local $hole i32) (local $t i32) (local $home i32)
    (local.set $list (i32.load offset=24 (local.get $hdr)))
    (local.set $slots (i32.load offset=28 (local.get $hdr)))
    (local.set $mask (i32.load offset=32 (local.get $hdr)))
    (local.set $shift (i32.load offset=36 (local.get $hdr)))
    (local.set $max (i32.load offset=40 (local.get $hdr)))
    (local.set $ph (i32.load offset=48 (local.get $hdr)))
    (local.set $taken (i32.load offset=52 (local.get $hdr)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_s (local.get $k) (local.get $n)))
        (local.set $id (i32.load (i32.add (local.get $list) (i32.shl (local.get $k) (i32.const 2)))))
        (br_if $done (i32.ge_u (local.get $id) (local.get $max)))
        ;; find the slot
        (local.set $s (i32.shr_u (i32.mul (local.get $id) (i32.const 0x9e3779b1)) (local.get $shift)))
        (loop $probe
          (local.set $a (i32.add (local.get $slots) (i32.shl (local.get $s) (i32.const 3))))
          (local.set $key (i32.load (local.get $a)))
          (if (i32.ne (local.get $key) (local.get $id))
            (then
              (br_if $done (i32.eq (local.get $key) (i32.const -1)))
              (local.set $s (i32.and (i32.add (local.get $s) (i32.const 1)) (local.get $mask)))
              (br $probe))))
        (local.set $j (i32.load offset=4 (local.get $a)))
        ;; backward-shift deletion: an entry after the hole moves into it unless its home lies
        ;; cyclically in (hole, t]
        (local.set $hole (local.get $s))
        (local.set $t (local.get $s))
        (block $shifted
          (loop $shift
            (local.set $t (i32.and (i32.add (local.get $t) (i32.const 1)) (local.get $mask)))
            (local.set $key (i32.load (i32.add (local.get $slots) (i32.shl (local.get $t) (i32.const 3)))))
            (br_if $shifted (i32.eq (local.get $key) (i32.const -1)))
            (local.set $home (i32.shr_u (i32.mul (local.get $key) (i32.const 0x9e3779b1)) (local.get $shift)))
            (br_if $shift
              (select
                (i32.and (i32.lt_u (local.get $hole) (local.get $home)) (i32.le_u (local.get $home) (local.get $t)))
                (i32.or (i32.lt_u (local.get $hole) (local.get $home)) (i32.le_u (local.get $home) (local.get $t)))
                (i32.le_u (local.get $hole) (local.get $t))))
            (local.set $a (i32.add (local.get $slots) (i32.shl (local.get $hole) (i32.const 3))))
            (i32.store (local.get $a) (local.get $key))
            (i32.store offset=4 (local.get $a)
              (i32.load offset=4 (i32.add (local.get $slots) (i32.shl (local.get $t) (i32.const 3)))))
            (local.set $hole (local.get $t))
            (br $shift)))
        (i32.store (i32.add (local.get $slots) (i32.shl (local.get $hole) (i32.const 3))) (i32.const -1))
        (i32.store8 (i32.add (local.get $taken) (local.get $j)) (i32.const 2))
        (i32.store (i32.add (local.get $list) (i32.shl (local.get $k) (i32.const 2)))
          (i32.load (i32.add (local.get $ph) (i32.shl (local.get $j) (i32.const 2)))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $next)))
    (local.get $k))
)
