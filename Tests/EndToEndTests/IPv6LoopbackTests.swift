import Testing

/// `HTTPLoginAPIIPv6Tests` skips itself on a machine without an IPv6 loopback. A run that
/// must cover IPv6 sets `LOGINSTORE_IPV6_TESTS=required` (`.ci/run` does), and then the
/// missing loopback fails here instead of passing unseen.
struct IPv6LoopbackTests {
  @Test func theIPv6SettingIsOneThisTestUnderstands() {
    if let setting = IPv6Loopback.setting, !setting.isEmpty {
      #expect(
        setting == "required",
        """
        \(IPv6Loopback.variable)=\(setting) is not understood: set it to 'required' or leave \
        it unset
        """)
    }
  }

  @Test(
    .enabled(
      if: IPv6Loopback.isRequired,
      "a missing IPv6 loopback fails the run only with LOGINSTORE_IPV6_TESTS=required"))
  func theIPv6LoopbackIsThereWhenRequired() {
    #expect(
      IPv6Loopback.unavailableReason == nil,
      """
      \(IPv6Loopback.variable)=required, but ::1 cannot be bound \
      (\(IPv6Loopback.unavailableReason ?? "")), so HTTPLoginAPIIPv6Tests were skipped: \
      give the machine an IPv6 loopback, or unset the variable.
      """)
  }
}
