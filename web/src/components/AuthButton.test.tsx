import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../app/store';
import { AuthButton } from './AuthButton';

function renderAt(setMenu: string[]) {
  useAppStore.setState({ setMenu });
  const router = createMemoryRouter(
    [
      {
        path: '/access/userInfo',
        handle: { name: 'userInfo' },
        element: (
          <>
            <AuthButton code="add"><button>add</button></AuthButton>
            <AuthButton code="userInfo-delete"><button>delete</button></AuthButton>
            <AuthButton code="edit"><button>edit</button></AuthButton>
          </>
        ),
      },
    ],
    { initialEntries: ['/access/userInfo'] },
  );
  render(<RouterProvider router={router} />);
}

describe('AuthButton', () => {
  it('shows children only for authorised codes (suffix or full name)', () => {
    renderAt(['userInfo-add', 'userInfo-delete']);
    expect(screen.queryByText('add')).not.toBeNull();
    expect(screen.queryByText('delete')).not.toBeNull();
    expect(screen.queryByText('edit')).toBeNull();
  });
  it('hides everything without permissions', () => {
    renderAt([]);
    expect(screen.queryByRole('button')).toBeNull();
  });
});
