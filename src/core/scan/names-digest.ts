/**
 * An order-free digest of a set of file names (issue 22): a folder listing's order is the file system's, so two
 * listings of the same names must give the same digest. Used for the sets a device remembers without keeping
 * their names: the names an index.md lists (checked-indexes.ts) and a session folder's older notes
 * (folder-brief.ts). Pure.
 */

/** A set of names' digest and how many names it has. */
export interface NamesDigest {
  readonly digest: string;
  readonly count: number;
}

/**
 * A running sum of names' hashes, in two independent 32-bit lanes, with the number of names: the digest of a set
 * is the sum of its names' mixed hashes. Two different sets of the same size collide with a chance of about
 * 2^-64. A name is added once (a set's digest, not a list's) or taken away again.
 */
export class NamesSum {
  private a = 0;
  private b = 0;
  private n = 0;

  /** A sum that starts from `digest` (as NamesSum.digest gave it); null when it is not one. */
  static from(digest: NamesDigest): NamesSum | null {
    if (!/^[0-9a-f]{16}$/.test(digest.digest) || !Number.isInteger(digest.count) || digest.count < 0) return null;
    const sum = new NamesSum();
    sum.a = parseInt(digest.digest.slice(0, 8), 16);
    sum.b = parseInt(digest.digest.slice(8), 16);
    sum.n = digest.count;
    return sum;
  }

  /** Adds (sign 1) or takes away (-1) `name`. */
  add(name: string, sign: 1 | -1 = 1): void {
    // One pass over its UTF-16 code units: FNV-1a, and a multiply-rotate of another seed; each then avalanched
    // (MurmurHash3's finaliser) so that sums spread evenly.
    let a = 0x811c9dc5;
    let b = 0x9747b28c ^ name.length;
    for (let i = 0; i < name.length; i++) {
      const c = name.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b = (b << 13) | (b >>> 19);
    }
    this.a = (this.a + sign * mix(a)) >>> 0;
    this.b = (this.b + sign * mix(b ^ 0x27d4eb2f)) >>> 0;
    this.n += sign;
  }

  copy(): NamesSum {
    const sum = new NamesSum();
    sum.a = this.a;
    sum.b = this.b;
    sum.n = this.n;
    return sum;
  }

  digest(): NamesDigest {
    return { digest: hex8(this.a) + hex8(this.b), count: this.n };
  }
}

/** The digest of `names`, a set (no name twice). */
export function namesDigest(names: Iterable<string>): NamesDigest {
  const sum = new NamesSum();
  for (const name of names) sum.add(name);
  return sum.digest();
}

export const sameDigest = (x: NamesDigest, y: NamesDigest): boolean => x.digest === y.digest && x.count === y.count;

const hex8 = (n: number): string => n.toString(16).padStart(8, "0");

/** The 32-bit finaliser of MurmurHash3. */
function mix(x: number): number {
  let h = x;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
