import { act, fireEvent, render, renderHook, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PREVENT_DOUBLE_CLICK_MS } from '@campus/contract';
import { SubmitButton } from '../components/submit-button';
import { usePreventDoubleClick } from './use-prevent-double-click';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('usePreventDoubleClick', () => {
  it('runs the first click and drops the next ones for 3000 ms', () => {
    const action = vi.fn();
    const { result } = renderHook(() => usePreventDoubleClick(action));
    act(() => {
      result.current.run();
      result.current.run();
    });
    expect(action).toHaveBeenCalledTimes(1);
    expect(result.current.isBlocked).toBe(true);

    act(() => vi.advanceTimersByTime(PREVENT_DOUBLE_CLICK_MS - 1));
    act(() => result.current.run());
    expect(action).toHaveBeenCalledTimes(1);

    act(() => vi.advanceTimersByTime(1));
    expect(result.current.isBlocked).toBe(false);
    act(() => result.current.run());
    expect(action).toHaveBeenCalledTimes(2);
  });

  it('stays blocked until a slow action settles', async () => {
    let finish: () => void = () => undefined;
    const action = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const { result } = renderHook(() => usePreventDoubleClick(action));
    act(() => result.current.run());
    expect(result.current.isRunning).toBe(true);

    act(() => vi.advanceTimersByTime(PREVENT_DOUBLE_CLICK_MS * 2));
    expect(result.current.isBlocked).toBe(true);

    await act(async () => finish());
    expect(result.current.isBlocked).toBe(false);
    expect(result.current.isRunning).toBe(false);
  });

  it('keeps the 3000 ms even when the action fails fast', async () => {
    const action = vi.fn(() => Promise.reject(new Error('nope')));
    const { result } = renderHook(() => usePreventDoubleClick(action));
    await act(async () => result.current.run());
    expect(result.current.isBlocked).toBe(true);
    act(() => vi.advanceTimersByTime(PREVENT_DOUBLE_CLICK_MS));
    expect(result.current.isBlocked).toBe(false);
  });

  it('disables a SubmitButton after a click', () => {
    const onClick = vi.fn();
    render(<SubmitButton onClick={onClick}>Save</SubmitButton>);
    const button = screen.getByRole('button', { name: 'Save' });
    fireEvent.click(button);
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(button).toHaveProperty('disabled', true);
    act(() => vi.advanceTimersByTime(PREVENT_DOUBLE_CLICK_MS));
    expect(button).toHaveProperty('disabled', false);
  });
});
