import Yams

/// Refuses a composed YAML tree whose aliases would expand it past a bound, or whose nesting is
/// deeper than one, before anything walks it expanded.
///
/// Yams shares an anchored node among its aliases, so composing a "billion laughs" document is
/// cheap; decoding it visits every expanded node and never finishes. The walk here visits each
/// written node once and counts an alias by the size of its anchored node, remembered per anchor.
struct YAMLShapeCheck {
    /// Nodes that aliases may add to a document, all aliases together.
    static let maxAliasedNodes = 1_000_000
    /// Nesting of mappings and sequences, counting what aliases bring in.
    static let maxDepth = 128

    enum Problem: Error {
        /// An alias of `anchor`, in the collection at `mark`, took the expanded size past the bound.
        case aliases(anchor: String, mark: Mark?)
        /// The collection at `mark` is nested deeper than the bound.
        case depth(mark: Mark?)
    }

    private struct Extent {
        var nodes: Int
        var height: Int
    }

    private var anchored: [ObjectIdentifier: Extent] = [:]
    private var aliasedNodes = 0

    /// The parser that composed `root` must still be alive: nodes hold their anchors weakly.
    static func check(_ root: Node) throws(Problem) {
        var check = YAMLShapeCheck()
        _ = try check.extent(of: root, depth: 1, container: nil)
    }

    private mutating func extent(of node: Node, depth: Int, container: Mark?) throws(Problem) -> Extent {
        if let anchor = node.anchor, let known = anchored[ObjectIdentifier(anchor)] {
            // Seen before: this occurrence is an alias.
            aliasedNodes += known.nodes
            guard aliasedNodes <= Self.maxAliasedNodes else { throw .aliases(anchor: anchor.rawValue, mark: container) }
            guard depth + known.height - 1 <= Self.maxDepth else { throw .depth(mark: container) }
            return known
        }
        var extent = Extent(nodes: 1, height: 1)
        switch node {
        case .scalar, .alias:
            break
        case .mapping(let mapping):
            guard depth <= Self.maxDepth else { throw .depth(mark: mapping.mark) }
            for (key, value) in mapping {
                for child in [key, value] {
                    let inner = try self.extent(of: child, depth: depth + 1, container: mapping.mark)
                    extent.nodes += inner.nodes
                    extent.height = max(extent.height, inner.height + 1)
                }
            }
        case .sequence(let sequence):
            guard depth <= Self.maxDepth else { throw .depth(mark: sequence.mark) }
            for child in sequence {
                let inner = try self.extent(of: child, depth: depth + 1, container: sequence.mark)
                extent.nodes += inner.nodes
                extent.height = max(extent.height, inner.height + 1)
            }
        }
        if let anchor = node.anchor { anchored[ObjectIdentifier(anchor)] = extent }
        return extent
    }
}
