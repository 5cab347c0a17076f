;; The entity kernel: per-entity number crunching of the recorder, 4 entities per f32x4 vector.
;;
;; Source of src/core/kernel/entityKernelWasm.ts: after editing, run `npm run build:kernel`
;; (scripts/build-kernel.mjs). The JavaScript reference is encodeQuatColumns in
;; src/core/math/quat.ts: every operation below is the same float32 operation in the same order,
;; so both produce the same bits (the kernel tests check it). Keep the compiled module under 4 KB:
;; browsers refuse to compile bigger modules synchronously on the main thread.
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
  (func (export "encode") (param $p i32) (param $s i32) (param $n i32) (param $o i32) (result i32)
    (local $x v128) (local $y v128) (local $z v128) (local $w v128)
    (local $n2 v128) (local $inv v128) (local $valid v128) (local $cnt v128)
    (local $g01 v128) (local $g23 v128) (local $high v128) (local $sgn v128) (local $l v128)
    (local $a v128) (local $b v128) (local $c v128) (local $t v128) (local $idx v128)
    (local $na v128) (local $nb v128) (local $nc v128) (local $xa v128) (local $xb v128) (local $xc v128)
    (local $sna v128) (local $snb v128) (local $snc v128) (local $sxa v128) (local $sxb v128) (local $sxc v128)
    (local $ena v128) (local $enb v128) (local $enc v128) (local $exa v128) (local $exb v128) (local $exc v128)
    (local $d v128) (local $r1a v128) (local $r2ab v128) (local $r v128)
    (local $e0 v128) (local $e1 v128) (local $e2 v128) (local $e3 v128)
    (local $w1 v128) (local $w2 v128) (local $w3 v128) (local $code v128) (local $total i32)
    (local.set $total (local.get $n))
    (block $done
      (br_if $done (i32.le_s (local.get $n) (i32.const 0)))
      (loop $next
        (local.set $x (v128.load (local.get $p)))
        (local.set $y (v128.load (i32.add (local.get $p) (local.get $s))))
        (local.set $z (v128.load (i32.add (local.get $p) (i32.shl (local.get $s) (i32.const 1)))))
        (local.set $w (v128.load (i32.add (local.get $p) (i32.mul (local.get $s) (i32.const 3)))))
        ;; n2 = ((x² + y²) + z²) + w²; valid when 1e-20 < n2 < 1e20 (NaN compares false)
        (local.set $n2
          (f32x4.add
            (f32x4.add
              (f32x4.add (f32x4.mul (local.get $x) (local.get $x)) (f32x4.mul (local.get $y) (local.get $y)))
              (f32x4.mul (local.get $z) (local.get $z)))
            (f32x4.mul (local.get $w) (local.get $w))))
        (local.set $valid
          (v128.and
            (f32x4.gt (local.get $n2) (v128.const f32x4 0x1.79ca10p-67 0x1.79ca10p-67 0x1.79ca10p-67 0x1.79ca10p-67))
            (f32x4.lt (local.get $n2) (v128.const f32x4 0x1.5af1d8p+66 0x1.5af1d8p+66 0x1.5af1d8p+66 0x1.5af1d8p+66))))
        ;; inv = n2 in (0.999, 1.001) ? 1.5 - 0.5·n2 : 1 / sqrt(n2). Games pass unit quaternions, so
        ;; the square root and the division run only when some lane needs them (a predictable branch
        ;; that keeps them off the critical path).
        (local.set $inv
          (f32x4.sub (v128.const f32x4 1.5 1.5 1.5 1.5)
            (f32x4.mul (v128.const f32x4 0.5 0.5 0.5 0.5) (local.get $n2))))
        (local.set $d
          (v128.and
            (f32x4.gt (local.get $n2) (v128.const f32x4 0x1.ff7ceep-1 0x1.ff7ceep-1 0x1.ff7ceep-1 0x1.ff7ceep-1))
            (f32x4.lt (local.get $n2) (v128.const f32x4 0x1.00418ap+0 0x1.00418ap+0 0x1.00418ap+0 0x1.00418ap+0))))
        (if (i32.eqz (i32x4.all_true (local.get $d)))
          (then
            (local.set $inv
              (v128.bitselect (local.get $inv)
                (f32x4.div (v128.const f32x4 1 1 1 1) (f32x4.sqrt (local.get $n2)))
                (local.get $d)))))
        (local.set $x (f32x4.mul (local.get $x) (local.get $inv)))
        (local.set $y (f32x4.mul (local.get $y) (local.get $inv)))
        (local.set $z (f32x4.mul (local.get $z) (local.get $inv)))
        (local.set $w (f32x4.mul (local.get $w) (local.get $inv)))
        ;; |component| (sign bit cleared); largest, ties to the lowest index: g01 = |y| > |x|,
        ;; g23 = |w| > |z|, high = max(|z|, |w|) > max(|x|, |y|); idx = high ? 2 + g23 : g01.
        ;; pmax(a, b) = a < b ? b : a, the maximum here (no NaN in valid lanes).
        (local.set $a (v128.and (local.get $x) (v128.const i32x4 0x7fffffff 0x7fffffff 0x7fffffff 0x7fffffff)))
        (local.set $b (v128.and (local.get $y) (v128.const i32x4 0x7fffffff 0x7fffffff 0x7fffffff 0x7fffffff)))
        (local.set $c (v128.and (local.get $z) (v128.const i32x4 0x7fffffff 0x7fffffff 0x7fffffff 0x7fffffff)))
        (local.set $t (v128.and (local.get $w) (v128.const i32x4 0x7fffffff 0x7fffffff 0x7fffffff 0x7fffffff)))
        (local.set $g01 (f32x4.gt (local.get $b) (local.get $a)))
        (local.set $g23 (f32x4.gt (local.get $t) (local.get $c)))
        (local.set $a (f32x4.pmax (local.get $a) (local.get $b)))
        (local.set $c (f32x4.pmax (local.get $c) (local.get $t)))
        (local.set $high (f32x4.gt (local.get $c) (local.get $a)))
        ;; l = |n[idx]|
        (local.set $l (f32x4.pmax (local.get $a) (local.get $c)))
        ;; negate all when n[idx] is negative: flip the sign bits (sgn = sign bit of n[idx])
        (local.set $sgn
          (v128.and
            (v128.bitselect
              (v128.bitselect (local.get $w) (local.get $z) (local.get $g23))
              (v128.bitselect (local.get $y) (local.get $x) (local.get $g01))
              (local.get $high))
            (v128.const i32x4 0x80000000 0x80000000 0x80000000 0x80000000)))
        ;; idx in bits 31..30: bit 31 = high, bit 30 = idx 1 or idx 3
        (local.set $idx
          (v128.or
            (v128.and (local.get $high) (v128.const i32x4 0x80000000 0x80000000 0x80000000 0x80000000))
            (v128.and
              (v128.bitselect (local.get $g23) (local.get $g01) (local.get $high))
              (v128.const i32x4 0x40000000 0x40000000 0x40000000 0x40000000))))
        ;; the others in increasing index order: a = idx 0 ? y : x; b = idx ≥ 2 ? y : z; c = idx 3 ? z : w
        (local.set $a
          (v128.xor (local.get $sgn)
            (v128.bitselect (local.get $x) (local.get $y) (v128.or (local.get $high) (local.get $g01)))))
        (local.set $b
          (v128.xor (local.get $sgn) (v128.bitselect (local.get $y) (local.get $z) (local.get $high))))
        (local.set $c
          (v128.xor (local.get $sgn)
            (v128.bitselect (local.get $z) (local.get $w) (v128.and (local.get $high) (local.get $g23)))))

        ;; per component: t = a·SCALE + 511; near = trunc(t + 0.5); alt = near > t ? near - 1 : near + 1,
        ;; clamped to [0, 1022]. Kept as near - 511 (na) and alt - 511 (xa), exact small integers;
        ;; ±1 is 1.0 with the sign bit of the mask. Then d = (k - 511)·INV_SCALE, its square s and
        ;; its squared error e = (d - a)².
        (local.set $t
          (f32x4.add (f32x4.mul (local.get $a) (v128.const f32x4 0x1.6954e2p+9 0x1.6954e2p+9 0x1.6954e2p+9 0x1.6954e2p+9))
            (v128.const f32x4 511 511 511 511)))
        (local.set $na (f32x4.trunc (f32x4.add (local.get $t) (v128.const f32x4 0.5 0.5 0.5 0.5))))
        (local.set $xa
          (f32x4.pmin (v128.const f32x4 511 511 511 511)
            (f32x4.pmax (v128.const f32x4 -511 -511 -511 -511)
              (f32x4.add (f32x4.sub (local.get $na) (v128.const f32x4 511 511 511 511))
                (v128.or (v128.const f32x4 1 1 1 1)
                  (v128.and (f32x4.gt (local.get $na) (local.get $t))
                    (v128.const i32x4 0x80000000 0x80000000 0x80000000 0x80000000)))))))
        (local.set $na (f32x4.sub (local.get $na) (v128.const f32x4 511 511 511 511)))
        (local.set $d (f32x4.mul (local.get $na) (v128.const f32x4 0x1.6abf46p-10 0x1.6abf46p-10 0x1.6abf46p-10 0x1.6abf46p-10)))
        (local.set $sna (f32x4.mul (local.get $d) (local.get $d)))
        (local.set $d (f32x4.sub (local.get $d) (local.get $a)))
        (local.set $ena (f32x4.mul (local.get $d) (local.get $d)))
        (local.set $d (f32x4.mul (local.get $xa) (v128.const f32x4 0x1.6abf46p-10 0x1.6abf46p-10 0x1.6abf46p-10 0x1.6abf46p-10)))
        (local.set $sxa (f32x4.mul (local.get $d) (local.get $d)))
        (local.set $d (f32x4.sub (local.get $d) (local.get $a)))
        (local.set $exa (f32x4.mul (local.get $d) (local.get $d)))

        (local.set $t
          (f32x4.add (f32x4.mul (local.get $b) (v128.const f32x4 0x1.6954e2p+9 0x1.6954e2p+9 0x1.6954e2p+9 0x1.6954e2p+9))
            (v128.const f32x4 511 511 511 511)))
        (local.set $nb (f32x4.trunc (f32x4.add (local.get $t) (v128.const f32x4 0.5 0.5 0.5 0.5))))
        (local.set $xb
          (f32x4.pmin (v128.const f32x4 511 511 511 511)
            (f32x4.pmax (v128.const f32x4 -511 -511 -511 -511)
              (f32x4.add (f32x4.sub (local.get $nb) (v128.const f32x4 511 511 511 511))
                (v128.or (v128.const f32x4 1 1 1 1)
                  (v128.and (f32x4.gt (local.get $nb) (local.get $t))
                    (v128.const i32x4 0x80000000 0x80000000 0x80000000 0x80000000)))))))
        (local.set $nb (f32x4.sub (local.get $nb) (v128.const f32x4 511 511 511 511)))
        (local.set $d (f32x4.mul (local.get $nb) (v128.const f32x4 0x1.6abf46p-10 0x1.6abf46p-10 0x1.6abf46p-10 0x1.6abf46p-10)))
        (local.set $snb (f32x4.mul (local.get $d) (local.get $d)))
        (local.set $d (f32x4.sub (local.get $d) (local.get $b)))
        (local.set $enb (f32x4.mul (local.get $d) (local.get $d)))
        (local.set $d (f32x4.mul (local.get $xb) (v128.const f32x4 0x1.6abf46p-10 0x1.6abf46p-10 0x1.6abf46p-10 0x1.6abf46p-10)))
        (local.set $sxb (f32x4.mul (local.get $d) (local.get $d)))
        (local.set $d (f32x4.sub (local.get $d) (local.get $b)))
        (local.set $exb (f32x4.mul (local.get $d) (local.get $d)))

        (local.set $t
          (f32x4.add (f32x4.mul (local.get $c) (v128.const f32x4 0x1.6954e2p+9 0x1.6954e2p+9 0x1.6954e2p+9 0x1.6954e2p+9))
            (v128.const f32x4 511 511 511 511)))
        (local.set $nc (f32x4.trunc (f32x4.add (local.get $t) (v128.const f32x4 0.5 0.5 0.5 0.5))))
        (local.set $xc
          (f32x4.pmin (v128.const f32x4 511 511 511 511)
            (f32x4.pmax (v128.const f32x4 -511 -511 -511 -511)
              (f32x4.add (f32x4.sub (local.get $nc) (v128.const f32x4 511 511 511 511))
                (v128.or (v128.const f32x4 1 1 1 1)
                  (v128.and (f32x4.gt (local.get $nc) (local.get $t))
                    (v128.const i32x4 0x80000000 0x80000000 0x80000000 0x80000000)))))))
        (local.set $nc (f32x4.sub (local.get $nc) (v128.const f32x4 511 511 511 511)))
        (local.set $d (f32x4.mul (local.get $nc) (v128.const f32x4 0x1.6abf46p-10 0x1.6abf46p-10 0x1.6abf46p-10 0x1.6abf46p-10)))
        (local.set $snc (f32x4.mul (local.get $d) (local.get $d)))
        (local.set $d (f32x4.sub (local.get $d) (local.get $c)))
        (local.set $enc (f32x4.mul (local.get $d) (local.get $d)))
        (local.set $d (f32x4.mul (local.get $xc) (v128.const f32x4 0x1.6abf46p-10 0x1.6abf46p-10 0x1.6abf46p-10 0x1.6abf46p-10)))
        (local.set $sxc (f32x4.mul (local.get $d) (local.get $d)))
        (local.set $d (f32x4.sub (local.get $d) (local.get $c)))
        (local.set $exc (f32x4.mul (local.get $d) (local.get $d)))

        ;; candidates: r = ((1 - da²) - db²) - dc²; dl = r > 0 ? sqrt(r) : 0, as sqrt(pmax(r, 0))
        ;; (r = -0 gives dl = -0, and dl - l is the same);
        ;; E = (((da-a)² + (db-b)²) + (dc-c)²) + (dl-l)²
        (local.set $r1a (f32x4.sub (v128.const f32x4 1 1 1 1) (local.get $sna)))
        (local.set $r2ab (f32x4.sub (local.get $r1a) (local.get $snb)))
        ;; C0: all near
        (local.set $r (f32x4.sub (local.get $r2ab) (local.get $snc)))
        (local.set $d (f32x4.sub
          (f32x4.sqrt (f32x4.pmax (local.get $r) (v128.const f32x4 0 0 0 0)))
          (local.get $l)))
        (local.set $e0 (f32x4.add
          (f32x4.add (f32x4.add (local.get $ena) (local.get $enb)) (local.get $enc))
          (f32x4.mul (local.get $d) (local.get $d))))
        ;; C1: a at alt
        (local.set $r (f32x4.sub (f32x4.sub (f32x4.sub (v128.const f32x4 1 1 1 1) (local.get $sxa)) (local.get $snb))
          (local.get $snc)))
        (local.set $d (f32x4.sub
          (f32x4.sqrt (f32x4.pmax (local.get $r) (v128.const f32x4 0 0 0 0)))
          (local.get $l)))
        (local.set $e1 (f32x4.add
          (f32x4.add (f32x4.add (local.get $exa) (local.get $enb)) (local.get $enc))
          (f32x4.mul (local.get $d) (local.get $d))))
        ;; C2: b at alt
        (local.set $r (f32x4.sub (f32x4.sub (local.get $r1a) (local.get $sxb)) (local.get $snc)))
        (local.set $d (f32x4.sub
          (f32x4.sqrt (f32x4.pmax (local.get $r) (v128.const f32x4 0 0 0 0)))
          (local.get $l)))
        (local.set $e2 (f32x4.add
          (f32x4.add (f32x4.add (local.get $ena) (local.get $exb)) (local.get $enc))
          (f32x4.mul (local.get $d) (local.get $d))))
        ;; C3: c at alt
        (local.set $r (f32x4.sub (local.get $r2ab) (local.get $sxc)))
        (local.set $d (f32x4.sub
          (f32x4.sqrt (f32x4.pmax (local.get $r) (v128.const f32x4 0 0 0 0)))
          (local.get $l)))
        (local.set $e3 (f32x4.add
          (f32x4.add (f32x4.add (local.get $ena) (local.get $enb)) (local.get $exc))
          (f32x4.mul (local.get $d) (local.get $d))))

        ;; smallest E, ties to the earlier candidate: pmin(best, e) = e < best ? e : best
        (local.set $w1 (f32x4.lt (local.get $e1) (local.get $e0)))
        (local.set $e0 (f32x4.pmin (local.get $e0) (local.get $e1)))
        (local.set $w2 (f32x4.lt (local.get $e2) (local.get $e0)))
        (local.set $e0 (f32x4.pmin (local.get $e0) (local.get $e2)))
        (local.set $w3 (f32x4.lt (local.get $e3) (local.get $e0)))
        (local.set $w2 (v128.andnot (local.get $w2) (local.get $w3)))
        (local.set $w1 (v128.andnot (v128.andnot (local.get $w1) (local.get $w2)) (local.get $w3)))
        ;; bits = idx<<30 | ka<<20 | kb<<10 | kc, or the identity when invalid. k - 511 + (511 + 2^23)
        ;; is a float whose low mantissa bits are k; shifting left by 10 or 20 drops the exponent.
        (local.set $code
          (v128.bitselect
            (v128.or (local.get $idx)
              (v128.or
                (i32x4.shl
                  (f32x4.add (v128.bitselect (local.get $xa) (local.get $na) (local.get $w1))
                    (v128.const f32x4 8389119 8389119 8389119 8389119))
                  (i32.const 20))
                (v128.or
                  (i32x4.shl
                    (f32x4.add (v128.bitselect (local.get $xb) (local.get $nb) (local.get $w2))
                      (v128.const f32x4 8389119 8389119 8389119 8389119))
                    (i32.const 10))
                  (v128.and
                    (f32x4.add (v128.bitselect (local.get $xc) (local.get $nc) (local.get $w3))
                      (v128.const f32x4 8389119 8389119 8389119 8389119))
                    (v128.const i32x4 0x3ff 0x3ff 0x3ff 0x3ff)))))
            (v128.const i32x4 0xdff7fdff 0xdff7fdff 0xdff7fdff 0xdff7fdff)
            (local.get $valid)))
        (if (i32.lt_s (local.get $n) (i32.const 4))
          (then
            ;; the last, partial vector: store and count only lanes 0 .. n-1
            (local.set $cnt
              (i32x4.sub (local.get $cnt)
                (v128.and (local.get $valid) (i32x4.lt_s (v128.const i32x4 0 1 2 3) (i32x4.splat (local.get $n))))))
            (v128.store32_lane 0 (local.get $o) (local.get $code))
            (if (i32.gt_s (local.get $n) (i32.const 1))
              (then (v128.store32_lane offset=4 1 (local.get $o) (local.get $code))))
            (if (i32.gt_s (local.get $n) (i32.const 2))
              (then (v128.store32_lane offset=8 2 (local.get $o) (local.get $code))))
            (br $done)))
        ;; count the valid lanes (a valid mask lane is -1)
        (local.set $cnt (i32x4.sub (local.get $cnt) (local.get $valid)))
        (v128.store (local.get $o) (local.get $code))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (local.set $o (i32.add (local.get $o) (i32.const 16)))
        (local.set $n (i32.sub (local.get $n) (i32.const 4)))
        (br_if $next (i32.gt_s (local.get $n) (i32.const 0)))))
    ;; invalid = n - valid
    (i32.sub (local.get $total)
      (i32.add
        (i32.add (i32x4.extract_lane 0 (local.get $cnt)) (i32x4.extract_lane 1 (local.get $cnt)))
        (i32.add (i32x4.extract_lane 2 (local.get $cnt)) (i32x4.extract_lane 3 (local.get $cnt))))))

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
)
