import LoginFeature
import LoginFeatureTesting
import StateStore
import StateStoreTesting
import Testing

@MainActor struct StubLoginAPITests {
  private let credentials = Fixtures.credentials

  @Test func answersInScriptOrderAndRecordsTheRequests() async throws {
    let api = StubLoginAPI(results: [.failure(.nilData), .success(Fixtures.session)])
    let other = Credentials(username: "ada", password: "Engine1843")
    await #expect(throws: LoginServiceError.nilData) { try await api.login(credentials) }
    #expect(try await api.login(other) == .session(Fixtures.session))
    #expect(api.requests == [credentials, other])
    #expect(api.callCount == 2)
    #expect(api.unusedResults == [])
    #expect(Dump.render(api.requests).contains("Secr3t") == false)
  }

  @Test func aCallBeyondTheScriptFailsTheTestWhereTheStubWasCreated() async {
    let failures = FailureReporter.Recorder()
    let api = StubLoginAPI(results: [.failure(.invalidCredentials)])
    let line = #line - 1
    let error = await FailureReporter.$current.withValue(failures.reporter) {
      _ = try? await api.login(credentials)
      do throws(LoginServiceError) {
        _ = try await api.login(credentials)
        return nil as LoginServiceError?
      } catch {
        return error
      }
    }
    #expect(error == .transport("StubLoginAPI: no scripted result for call 2"))
    #expect(
      failures.messages == [
        """
        StubLoginAPI got call 2, api.login(username: "demo", password: Secret(Aaaa0a)), but only \
        1 result was scripted.

        Script one result per expected call in StubLoginAPI(results:) or enqueue(_:), or check \
        why the feature called the API again.
        """
      ])
    #expect(failures.failures.map(\.location.line) == [line])
  }

  @Test func enqueuedResultsFollowTheScript() async throws {
    let api = StubLoginAPI()
    api.enqueue(.success(Fixtures.session), .failure(.timeout))
    #expect(try await api.login(credentials) == .session(Fixtures.session))
    await #expect(throws: LoginServiceError.timeout) { try await api.login(credentials) }
  }

  @Test func aHeldCallWaitsUntilReleasedAndTakesNoScriptedResult() async throws {
    let api = StubLoginAPI(results: [.failure(.invalidCredentials)])
    api.holdNextCall()
    let call = Task { try await api.login(credentials) }
    #expect(await api.waitForHeldCall() == credentials)
    #expect(api.heldCallCount == 1)
    api.release(with: .success(Fixtures.session))
    #expect(try await call.value == .session(Fixtures.session))
    #expect(api.heldCallCount == 0)
    #expect(api.unusedResults == [.failure(.invalidCredentials)])
  }

  @Test func twoHeldCallsAreAnsweredOutOfOrder() async throws {
    let api = StubLoginAPI()
    let ada = Credentials(username: "ada", password: "Engine1843")
    api.holdNextCall()
    api.holdNextCall()
    let first = Task { try await api.login(credentials) }
    let second = Task { try await api.login(ada) }
    #expect(await api.waitForHeldCall(where: { $0 == ada }) == ada)
    #expect(await api.waitForHeldCall(where: { $0 == credentials }) == credentials)
    #expect(Set(api.heldRequests.map(\.username)) == ["demo", "ada"])

    // The later request's answer arrives first.
    let adaSession = Session(user: User(id: "2", username: "ada"), token: "t0k3n-2")
    api.release(with: .success(adaSession), where: { $0.username == "ada" })
    #expect(try await second.value == .session(adaSession))
    #expect(api.heldRequests == [credentials])
    api.release(with: .failure(.invalidCredentials))
    await #expect(throws: LoginServiceError.invalidCredentials) { try await first.value }
    #expect(api.heldCallCount == 0)
  }

  @Test func releasingWhenNoHeldCallMeetsTheConditionFailsAndNamesTheHeldCalls() async {
    let failures = FailureReporter.Recorder()
    let api = StubLoginAPI()
    api.holdNextCall()
    let call = Task { try? await api.login(credentials) }
    await api.waitForHeldCall()
    FailureReporter.$current.withValue(failures.reporter) {
      api.release(with: .failure(.nilData), where: { $0.username == "ada" })
    }
    let timedOut = await FailureReporter.$current.withValue(failures.reporter) {
      await api.waitForHeldCall(timeout: .milliseconds(20), where: { $0.username == "ada" })
    }
    #expect(timedOut == nil)
    #expect(
      failures.messages == [
        """
        StubLoginAPI.release(with: nilData) found no held call that meets the condition.

        Held: api.login(username: "demo", password: Secret(Aaaa0a)). Release one of them.
        """,
        """
        StubLoginAPI.waitForHeldCall() timed out after 0.02 seconds: no held call meets the \
        condition.

        Held: api.login(username: "demo", password: Secret(Aaaa0a)). Wait for one of them, or \
        pass a longer timeout.
        """,
      ])
    api.release(with: .failure(.nilData))
    _ = await call.value
  }

  @Test func cancellingAHeldCallThrowsCancelled() async {
    let api = StubLoginAPI()
    api.holdNextCall()
    let call = Task { () async -> LoginServiceError? in
      do throws(LoginServiceError) {
        _ = try await api.login(credentials)
        return nil
      } catch {
        return error
      }
    }
    await api.waitForHeldCall()
    call.cancel()
    #expect(await call.value == .cancelled)
    #expect(api.heldCallCount == 0)
  }

  @Test func aHeldCallThatIgnoresCancellationWaitsForItsRelease() async throws {
    let api = StubLoginAPI()
    api.holdNextCall(honoringCancellation: false)
    let call = Task { try await api.login(credentials) }
    await api.waitForHeldCall()
    call.cancel()
    #expect(api.heldCallCount == 1)
    api.release(with: .success(Fixtures.session))
    #expect(try await call.value == .session(Fixtures.session))
  }

  @Test func releasingWithoutAHeldCallFails() {
    let failures = FailureReporter.Recorder()
    let api = StubLoginAPI()
    FailureReporter.$current.withValue(failures.reporter) {
      api.release(with: .failure(.nilData))
    }
    #expect(
      failures.messages == [
        """
        StubLoginAPI.release(with: nilData) found no held call.

        Call holdNextCall() before the action that calls the API, and await waitForHeldCall() \
        before releasing. A held call that honors cancellation has already ended if its task was \
        cancelled.
        """
      ])
  }

  @Test func waitingForAHeldCallTimesOutWithAClearMessage() async {
    let failures = FailureReporter.Recorder()
    let api = StubLoginAPI()
    let held = await FailureReporter.$current.withValue(failures.reporter) {
      await api.waitForHeldCall(timeout: .milliseconds(20))
    }
    #expect(held == nil)
    #expect(
      failures.messages == [
        """
        StubLoginAPI.waitForHeldCall() timed out after 0.02 seconds: no call is held.

        Calls so far: 0. Call holdNextCall() before the action that calls the API, or pass a \
        longer timeout.
        """
      ])
  }

  @Test func everyCallIsToldInTheStoryWithThePasswordMasked() async {
    let api = StubLoginAPI(results: [
      .failure(.wrongStatusCode(500)), .success(Fixtures.session),
    ])
    let story = StoryRecorder()
    await StoryRecorder.$current.withValue(story) {
      _ = try? await api.login(credentials)
      _ = try? await api.login(credentials)
    }
    #expect(
      story.performedLines == [
        #"api.login(username: "demo", password: Secret(Aaaa0a)) → wrongStatusCode(500)"#,
        #"api.login(username: "demo", password: Secret(Aaaa0a)) → success(user: "demo", "#
          + #"token: Secret(aaaa*aaaaa*0))"#,
      ])
  }
}
