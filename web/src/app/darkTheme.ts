import darkAlgorithm from 'antd/es/theme/themes/dark';
import { useAppStore } from './store';

/**
 * antd's dark algorithm, handed to the providers when the signed-in part of the console loads (the
 * shell and every page import this module). Only signed-in users have a dark preference, so the login
 * route never needs it and does not carry it.
 */
useAppStore.setState({ darkAlgorithm });
