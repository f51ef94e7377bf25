// swift-format-ignore-file
// (A stand-in spells Apple's names as Apple does, and leaves them undocumented.)

// A stand-in for UIKit on Linux: only the names the docs use, with the shapes UIKit gives
// them, so that the UIKit hosts type-check. Never shipped, never run.

@_exported import Foundation

@MainActor
open class UIResponder {
  public init() {}
}

@MainActor
open class UIView: UIResponder {
  open var isHidden = false
  open func addSubview(_ view: UIView) {}
}

@MainActor
open class UIControl: UIView {
  public struct Event: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let touchUpInside = Event(rawValue: 1 << 6)
    public static let editingChanged = Event(rawValue: 1 << 17)
  }
  public struct State: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let normal = State([])
  }
  open var isEnabled = true
  open func addAction(_ action: UIAction, for controlEvents: Event) {}
}

@MainActor
open class UIAction {
  public init(handler: @escaping (UIAction) -> Void) {}
}

@MainActor
open class UILabel: UIView {
  open var text: String?
}

@MainActor
open class UITextField: UIControl {
  open var text: String?
  open var isSecureTextEntry = false
}

@MainActor
open class UIButton: UIControl {
  public enum ButtonType: Sendable {
    case system
  }
  public init(type: ButtonType) {}
  open func setTitle(_ title: String?, for state: UIControl.State) {}
}

@MainActor
open class UIActivityIndicatorView: UIView {
  open func startAnimating() {}
  open func stopAnimating() {}
}

public class NSLayoutConstraint {
  public enum Axis: Sendable {
    case horizontal
    case vertical
  }
}

@MainActor
open class UIStackView: UIView {
  public init(arrangedSubviews views: [UIView]) {}
  open var axis = NSLayoutConstraint.Axis.horizontal
}

@MainActor
open class UIGestureRecognizer {
  open var isEnabled = true
}

@MainActor
open class UIBarButtonItem {
  public init(title: String?, primaryAction: UIAction?) {}
}

@MainActor
open class UINavigationItem {
  open var hidesBackButton = false
  open var rightBarButtonItem: UIBarButtonItem?
}

@MainActor
open class UIViewController: UIResponder {
  public init(nibName: String?, bundle: Bundle?) {}
  public required init?(coder: NSCoder) {}
  public override convenience init() { self.init(nibName: nil, bundle: nil) }
  open var view: UIView! = UIView()
  open var title: String?
  open var navigationItem = UINavigationItem()
  open var navigationController: UINavigationController? { nil }
  open func viewDidLoad() {}
  open func viewDidAppear(_ animated: Bool) {}
  open func present(
    _ viewController: UIViewController, animated: Bool, completion: (() -> Void)? = nil
  ) {}
  open func dismiss(animated: Bool, completion: (() -> Void)? = nil) {}
}

@MainActor
open class UINavigationController: UIViewController {
  public init(rootViewController: UIViewController) { super.init(nibName: nil, bundle: nil) }
  public required init?(coder: NSCoder) { super.init(coder: coder) }
  open var interactivePopGestureRecognizer: UIGestureRecognizer?
  open func pushViewController(_ viewController: UIViewController, animated: Bool) {}
  @discardableResult
  open func popViewController(animated: Bool) -> UIViewController? { nil }
  @discardableResult
  open func popToRootViewController(animated: Bool) -> [UIViewController]? { nil }
}

@MainActor
open class UIAlertAction {
  public enum Style: Sendable {
    case `default`
    case cancel
    case destructive
  }
  public init(title: String?, style: Style, handler: ((UIAlertAction) -> Void)? = nil) {}
}

@MainActor
open class UIAlertController: UIViewController {
  public enum Style: Sendable {
    case actionSheet
    case alert
  }
  public init(title: String?, message: String?, preferredStyle: Style) {
    super.init(nibName: nil, bundle: nil)
  }
  public required init?(coder: NSCoder) { super.init(coder: coder) }
  open func addAction(_ action: UIAlertAction) {}
}

@MainActor
open class UIScene: UIResponder {
  public class ConnectionOptions {}
}

@MainActor
open class UIWindowScene: UIScene {}

@MainActor
open class UISceneSession {}

@MainActor
public protocol UIWindowSceneDelegate: AnyObject {}

@MainActor
open class UIWindow: UIView {
  public init(windowScene: UIWindowScene) {}
  open var rootViewController: UIViewController?
  open func makeKeyAndVisible() {}
}
