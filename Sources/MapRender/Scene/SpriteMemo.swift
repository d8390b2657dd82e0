/// The sprites the marks of the last frame used, by the mark's position in its list, in front of
/// a `SpriteCache`.
///
/// Why: in an animation the scene's marks come in the same order frame after frame with the same
/// looks; only their positions change. Comparing a mark's key with the one its position had last
/// frame is much cheaper than hashing it (its count text, its look) and probing the cache for
/// each of 1,500 marks every frame. A different key (another mark there, or a new look) falls
/// through to the cache, so the sprite is always the one the cache gives for the key.
struct SpriteMemo {
    private var keys: [MarkKey?] = []
    private var sprites: [Sprite?] = []

    /// The sprite for `key` of the mark at position `i`: last frame's if its key was the same,
    /// else the cache's (made with `make` on a miss).
    @inline(__always)
    mutating func sprite(at i: Int, for key: MarkKey, in cache: SpriteCache<MarkKey>, make: () -> Sprite) -> Sprite {
        if i < keys.count, let s = sprites[i], keys[i] == key {
            cache.touch(s)
            return s
        }
        let s = cache.sprite(for: key, make: make)
        if i >= keys.count {
            keys.append(contentsOf: repeatElement(nil, count: i + 1 - keys.count))
            sprites.append(contentsOf: repeatElement(nil, count: i + 1 - sprites.count))
        }
        keys[i] = key
        sprites[i] = s
        return s
    }

    /// Forgets the positions from `count` on (the last frame had fewer marks), so sprites of marks
    /// long gone are not kept alive here.
    mutating func trim(to count: Int) {
        guard keys.count > count else { return }
        keys.removeSubrange(count...)
        sprites.removeSubrange(count...)
    }
}
