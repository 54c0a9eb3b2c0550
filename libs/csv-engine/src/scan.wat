;; The SIMD pre-pass of the CSV parser (parser.ts): 64 bytes per step, it lists where fields end, so the
;; JavaScript state machine reads one offset per field instead of testing every byte.
;;
;; scan(src, len, delim, marks, ends) reads `len` bytes at `src` (a multiple of 64: the record data, padded
;; with the delimiter) and writes
;;   ends:  the offsets of the delimiters, LFs and CRs outside quotes, in order (where fields and records end),
;;          bit 31 set on line breaks; then `len` once more, with bit 31, as an end marker. Returns how many
;;          offsets came before the marker;
;;   marks: for each 32 bytes, three little-endian words with bit i for byte i, set on a separator in the list:
;;          the field it ends holds a delimiter or line break inside quotes / holds a "" / (on a line break)
;;          the record it ends has a line break inside quotes.
;; "Inside quotes" is the toggle model: every quote flips it (so "" inside a field flips twice). That is the
;; real grammar only while every quote stands where RFC 4180 puts one: an opening quote right after a
;; separator (or at the start), the byte after a closing quote a separator (or "" going on). The scan checks
;; exactly that and returns -1 at the first quote that breaks it (a stray quote in unquoted text, text after a
;; closing quote); the caller then parses those bytes without the list.
;;
;; `ends` needs room for len + 13 offsets: each step writes 12 offsets whether or not it found as many
;; (the next step overwrites the extra ones), which spares a branch per step.
;;
;; scan-wasm.ts holds the assembled bytes: run `node scripts/build-scan-wasm.js` after changing this file.
(module
  (import "scan" "memory" (memory 1))
  (func (export "scan")
    (param $src i32) (param $len i32) (param $delim i32) (param $marks i32) (param $ends i32)
    (result i32)
    (local $at i32) (local $out i32) (local $more i32) (local $mark i32) (local $count i32)
    (local $vq v128) (local $vd v128) (local $vlf v128) (local $vcr v128)
    (local $v0 v128) (local $v1 v128) (local $v2 v128) (local $v3 v128)
    (local $q i64) (local $d i64) (local $nl i64) (local $s i64) (local $x i64) (local $m i64) (local $sep i64)
    (local $open i64) (local $close i64)
    (local $inside i64) (local $prevSep i64) (local $prevClose i64) (local $afterClose i64)
    (local $lineEnd i64) (local $need i64) (local $esc i64) (local $lines i64)
    (local $cNeed i64) (local $cEsc i64) (local $cLines i64) (local $free i64) (local $sum i64) (local $total i64)
    (local.set $vq (i8x16.splat (i32.const 0x22)))
    (local.set $vd (i8x16.splat (local.get $delim)))
    (local.set $vlf (i8x16.splat (i32.const 0x0a)))
    (local.set $vcr (i8x16.splat (i32.const 0x0d)))
    (local.set $out (local.get $ends))
    ;; The data starts at a record start: as if right after a separator, outside quotes.
    (local.set $prevSep (i64.const 1))
    (block $done
      (loop $step
        (br_if $done (i32.ge_u (local.get $at) (local.get $len)))
        (local.set $v0 (v128.load offset=0 (i32.add (local.get $src) (local.get $at))))
        (local.set $v1 (v128.load offset=16 (i32.add (local.get $src) (local.get $at))))
        (local.set $v2 (v128.load offset=32 (i32.add (local.get $src) (local.get $at))))
        (local.set $v3 (v128.load offset=48 (i32.add (local.get $src) (local.get $at))))
        (local.set $q (i64.or (i64.or (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v0) (local.get $vq)))) (i64.shl (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v1) (local.get $vq)))) (i64.const 16))) (i64.or (i64.shl (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v2) (local.get $vq)))) (i64.const 32)) (i64.shl (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v3) (local.get $vq)))) (i64.const 48)))))
        (local.set $d (i64.or (i64.or (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v0) (local.get $vd)))) (i64.shl (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v1) (local.get $vd)))) (i64.const 16))) (i64.or (i64.shl (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v2) (local.get $vd)))) (i64.const 32)) (i64.shl (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v3) (local.get $vd)))) (i64.const 48)))))
        (local.set $nl (i64.or (i64.or (i64.extend_i32_u (i8x16.bitmask (v128.or (i8x16.eq (local.get $v0) (local.get $vlf)) (i8x16.eq (local.get $v0) (local.get $vcr))))) (i64.shl (i64.extend_i32_u (i8x16.bitmask (v128.or (i8x16.eq (local.get $v1) (local.get $vlf)) (i8x16.eq (local.get $v1) (local.get $vcr))))) (i64.const 16))) (i64.or (i64.shl (i64.extend_i32_u (i8x16.bitmask (v128.or (i8x16.eq (local.get $v2) (local.get $vlf)) (i8x16.eq (local.get $v2) (local.get $vcr))))) (i64.const 32)) (i64.shl (i64.extend_i32_u (i8x16.bitmask (v128.or (i8x16.eq (local.get $v3) (local.get $vlf)) (i8x16.eq (local.get $v3) (local.get $vcr))))) (i64.const 48)))))
        (local.set $s (i64.or (local.get $d) (local.get $nl)))
        ;; x: bit i set when byte i is inside quotes after it is read (prefix XOR of the quotes, carried over).
        (local.set $x (i64.xor (local.get $q) (i64.shl (local.get $q) (i64.const 1))))
        (local.set $x (i64.xor (local.get $x) (i64.shl (local.get $x) (i64.const 2))))
        (local.set $x (i64.xor (local.get $x) (i64.shl (local.get $x) (i64.const 4))))
        (local.set $x (i64.xor (local.get $x) (i64.shl (local.get $x) (i64.const 8))))
        (local.set $x (i64.xor (local.get $x) (i64.shl (local.get $x) (i64.const 16))))
        (local.set $x (i64.xor (local.get $x) (i64.shl (local.get $x) (i64.const 32))))
        (local.set $x (i64.xor (local.get $x) (i64.sub (i64.const 0) (local.get $inside))))
        (local.set $inside (i64.shr_u (local.get $x) (i64.const 63)))
        (local.set $open (i64.and (local.get $q) (local.get $x)))
        (local.set $close (i64.and (local.get $q) (i64.xor (local.get $x) (i64.const -1))))
        (local.set $afterClose (i64.or (i64.shl (local.get $close) (i64.const 1)) (local.get $prevClose)))
        ;; An opening quote must follow a separator, or a closing quote ("" inside a field); the byte after
        ;; a closing quote must be a separator or an opening quote (the same "").
        (if
          (i64.ne
            (i64.or
              (i64.and (local.get $open)
                (i64.xor
                  (i64.or
                    (i64.or (i64.shl (local.get $s) (i64.const 1)) (local.get $prevSep))
                    (local.get $afterClose))
                  (i64.const -1)))
              (i64.and (local.get $afterClose)
                (i64.xor (i64.or (local.get $s) (local.get $open)) (i64.const -1))))
            (i64.const 0))
          (then (return (i32.const -1))))
        (local.set $prevSep (i64.shr_u (local.get $s) (i64.const 63)))
        (local.set $prevClose (i64.shr_u (local.get $close) (i64.const 63)))
        (local.set $sep (i64.and (local.get $s) (i64.xor (local.get $x) (i64.const -1))))
        (local.set $lineEnd (i64.and (local.get $nl) (i64.xor (local.get $x) (i64.const -1))))
        ;; The marks, set at the separator that ends a field (or a record) when what lies before it since the
        ;; previous one holds: a delimiter or line break inside quotes (the field keeps its quotes), the second
        ;; quote of a "" (the field has escaped quotes), a line break inside quotes (the record spans lines).
        ;; Each is carried up to that separator by an addition: over the bits that are not separators (all
        ;; ones), a carry started at a marked byte runs to the next separator; out of the top, into the next
        ;; step ($cNeed, $cEsc, $cLines).
        (local.set $free (i64.xor (local.get $sep) (i64.const -1)))
        (local.set $sum (i64.add (local.get $free) (i64.and (local.get $s) (local.get $x))))
        (local.set $total (i64.add (local.get $sum) (local.get $cNeed)))
        (local.set $need (i64.and (local.get $total) (local.get $sep)))
        (local.set $cNeed
          (i64.extend_i32_u
            (i32.or (i64.lt_u (local.get $sum) (local.get $free)) (i64.lt_u (local.get $total) (local.get $sum)))))
        (local.set $free (i64.xor (local.get $sep) (i64.const -1)))
        (local.set $sum (i64.add (local.get $free) (i64.and (local.get $open) (local.get $afterClose))))
        (local.set $total (i64.add (local.get $sum) (local.get $cEsc)))
        (local.set $esc (i64.and (local.get $total) (local.get $sep)))
        (local.set $cEsc
          (i64.extend_i32_u
            (i32.or (i64.lt_u (local.get $sum) (local.get $free)) (i64.lt_u (local.get $total) (local.get $sum)))))
        (local.set $free (i64.xor (local.get $lineEnd) (i64.const -1)))
        (local.set $sum (i64.add (local.get $free) (i64.and (local.get $nl) (local.get $x))))
        (local.set $total (i64.add (local.get $sum) (local.get $cLines)))
        (local.set $lines (i64.and (local.get $total) (local.get $lineEnd)))
        (local.set $cLines
          (i64.extend_i32_u
            (i32.or (i64.lt_u (local.get $sum) (local.get $free)) (i64.lt_u (local.get $total) (local.get $sum)))))
        (local.set $mark (i32.add (local.get $marks) (i32.mul (i32.shr_u (local.get $at) (i32.const 6)) (i32.const 24))))
        (i32.store offset=0 (local.get $mark) (i32.wrap_i64 (local.get $need)))
        (i32.store offset=4 (local.get $mark) (i32.wrap_i64 (local.get $esc)))
        (i32.store offset=8 (local.get $mark) (i32.wrap_i64 (local.get $lines)))
        (i32.store offset=12 (local.get $mark) (i32.wrap_i64 (i64.shr_u (local.get $need) (i64.const 32))))
        (i32.store offset=16 (local.get $mark) (i32.wrap_i64 (i64.shr_u (local.get $esc) (i64.const 32))))
        (i32.store offset=20 (local.get $mark) (i32.wrap_i64 (i64.shr_u (local.get $lines) (i64.const 32))))
        ;; The separators outside quotes, as offsets: 12 written at once, more only when there are.
        (local.set $m (local.get $sep))
        (local.set $count (i32.wrap_i64 (i64.popcnt (local.get $m))))
        (i32.store offset=0 (local.get $out)
          (i32.add (local.get $at) (i32.wrap_i64 (i64.ctz (local.get $m)))))
        (local.set $m (i64.and (local.get $m) (i64.sub (local.get $m) (i64.const 1))))
        (i32.store offset=4 (local.get $out)
          (i32.add (local.get $at) (i32.wrap_i64 (i64.ctz (local.get $m)))))
        (local.set $m (i64.and (local.get $m) (i64.sub (local.get $m) (i64.const 1))))
        (i32.store offset=8 (local.get $out)
          (i32.add (local.get $at) (i32.wrap_i64 (i64.ctz (local.get $m)))))
        (local.set $m (i64.and (local.get $m) (i64.sub (local.get $m) (i64.const 1))))
        (i32.store offset=12 (local.get $out)
          (i32.add (local.get $at) (i32.wrap_i64 (i64.ctz (local.get $m)))))
        (local.set $m (i64.and (local.get $m) (i64.sub (local.get $m) (i64.const 1))))
        (i32.store offset=16 (local.get $out)
          (i32.add (local.get $at) (i32.wrap_i64 (i64.ctz (local.get $m)))))
        (local.set $m (i64.and (local.get $m) (i64.sub (local.get $m) (i64.const 1))))
        (i32.store offset=20 (local.get $out)
          (i32.add (local.get $at) (i32.wrap_i64 (i64.ctz (local.get $m)))))
        (local.set $m (i64.and (local.get $m) (i64.sub (local.get $m) (i64.const 1))))
        (i32.store offset=24 (local.get $out)
          (i32.add (local.get $at) (i32.wrap_i64 (i64.ctz (local.get $m)))))
        (local.set $m (i64.and (local.get $m) (i64.sub (local.get $m) (i64.const 1))))
        (i32.store offset=28 (local.get $out)
          (i32.add (local.get $at) (i32.wrap_i64 (i64.ctz (local.get $m)))))
        (local.set $m (i64.and (local.get $m) (i64.sub (local.get $m) (i64.const 1))))
        (i32.store offset=32 (local.get $out)
          (i32.add (local.get $at) (i32.wrap_i64 (i64.ctz (local.get $m)))))
        (local.set $m (i64.and (local.get $m) (i64.sub (local.get $m) (i64.const 1))))
        (i32.store offset=36 (local.get $out)
          (i32.add (local.get $at) (i32.wrap_i64 (i64.ctz (local.get $m)))))
        (local.set $m (i64.and (local.get $m) (i64.sub (local.get $m) (i64.const 1))))
        (i32.store offset=40 (local.get $out)
          (i32.add (local.get $at) (i32.wrap_i64 (i64.ctz (local.get $m)))))
        (local.set $m (i64.and (local.get $m) (i64.sub (local.get $m) (i64.const 1))))
        (i32.store offset=44 (local.get $out)
          (i32.add (local.get $at) (i32.wrap_i64 (i64.ctz (local.get $m)))))
        (local.set $m (i64.and (local.get $m) (i64.sub (local.get $m) (i64.const 1))))
        (if (i32.gt_u (local.get $count) (i32.const 12))
          (then
            (local.set $more (i32.add (local.get $out) (i32.const 48)))
            (loop $rest
              (i32.store (local.get $more) (i32.add (local.get $at) (i32.wrap_i64 (i64.ctz (local.get $m)))))
              (local.set $more (i32.add (local.get $more) (i32.const 4)))
              (local.set $m (i64.and (local.get $m) (i64.sub (local.get $m) (i64.const 1))))
              (br_if $rest (i64.ne (local.get $m) (i64.const 0))))))
        ;; The line breaks among them get bit 31 (about one step in two has one): entry number = how many
        ;; separators come before it in this step.
        (local.set $m (local.get $lineEnd))
        (if (i64.ne (local.get $m) (i64.const 0))
          (then
            (loop $lines
              (local.set $more
                (i32.add (local.get $out)
                  (i32.shl
                    (i32.wrap_i64
                      (i64.popcnt
                        (i64.and (local.get $sep)
                          (i64.sub (i64.shl (i64.const 1) (i64.ctz (local.get $m))) (i64.const 1)))))
                    (i32.const 2))))
              (i32.store (local.get $more) (i32.or (i32.load (local.get $more)) (i32.const 0x80000000)))
              (local.set $m (i64.and (local.get $m) (i64.sub (local.get $m) (i64.const 1))))
              (br_if $lines (i64.ne (local.get $m) (i64.const 0))))))
        (local.set $out (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 2))))
        (local.set $at (i32.add (local.get $at) (i32.const 64)))
        (br $step)))
    (i32.store (local.get $out) (i32.or (local.get $len) (i32.const 0x80000000)))
    (i32.shr_u (i32.sub (local.get $out) (local.get $ends)) (i32.const 2))))
