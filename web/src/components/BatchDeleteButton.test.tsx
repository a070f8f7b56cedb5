import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderPage } from '../features/access/testing';
import { BatchDeleteButton } from './BatchDeleteButton';

const okLabel = /确\s*定/;

describe('BatchDeleteButton', () => {
  it('is hidden without the page delete permission', () => {
    renderPage(<BatchDeleteButton ids={[1]} remove={vi.fn()} onDone={vi.fn()} />, 'groupCar', ['add']);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('is disabled while nothing is selected', async () => {
    renderPage(<BatchDeleteButton ids={[]} remove={vi.fn()} onDone={vi.fn()} />, 'groupCar', ['delete']);
    const button = (await screen.findByRole('button', { name: /删\s*除/ })) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
  });

  it('deletes the selected ids only after confirmation, then calls onDone', async () => {
    const remove = vi.fn().mockResolvedValue(2);
    const onDone = vi.fn();
    renderPage(<BatchDeleteButton ids={['3', 7]} remove={remove} onDone={onDone} />, 'groupCar', ['delete']);
    fireEvent.click(await screen.findByRole('button', { name: /删\s*除/ }));
    expect(remove).not.toHaveBeenCalled();
    fireEvent.click(await screen.findByRole('button', { name: okLabel }));
    await waitFor(() => expect(remove).toHaveBeenCalledWith([3, 7]));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
  });
});
